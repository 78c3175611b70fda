/**
 * The remote-workspace transport over SFTP (docs/runners.md "Remote workspaces"): the ssh backend's side of
 * the port, built from the private-file helpers of sftp-io.ts. Owner = the ssh user's uid (probed at start).
 */
import type { SFTPWrapper, Stats } from 'ssh2';
import type { RemoteFileStat, RemoteRead, RemoteReadRefusal, RemoteWorkspaceTransport } from '../remote/workspace-port';
import {
  readRemoteBounded,
  sftpEnsurePrivateDir,
  sftpLstatOrNull,
  sftpReaddir,
  sftpRemoveIfPresent,
  sftpRename,
  sftpWriteNewFile,
} from './sftp-io';

/** A remote open that does not answer within this is refused (a FIFO swapped in after the lstat). */
export const SSH_OPEN_TIMEOUT_MS = 5000;

function kindOf(st: Stats): RemoteFileStat['kind'] {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'dir';
  if (st.isFile()) return 'file';
  return 'other';
}

function refusalOf(st: Stats, max: number): RemoteReadRefusal | null {
  if (st.isSymbolicLink()) return 'receipt_symlink';
  if (!st.isFile()) return 'receipt_not_regular';
  if (st.size > max) return 'receipt_too_large';
  return null;
}

/** The SFTP transport; `sftp` hands out the live session (reconnecting through the pool), `uid` owns what it creates. */
export function sftpTransport(sftp: () => Promise<SFTPWrapper>, uid: number): RemoteWorkspaceTransport {
  return {
    async lstat(p: string): Promise<RemoteFileStat | null> {
      const st = await sftpLstatOrNull(await sftp(), p);
      if (st === null) return null;
      return { kind: kindOf(st), size: st.size, mode: st.mode & 0o7777, mtimeMs: st.mtime * 1000 };
    },
    async readBounded(p: string, max: number): Promise<RemoteRead> {
      const s = await sftp();
      const st = await sftpLstatOrNull(s, p);
      if (st === null) return { kind: 'missing' };
      const refused = refusalOf(st, max);
      if (refused !== null) return { kind: 'refused', reason: refused };
      return readRemoteBounded(s, p, st, max, SSH_OPEN_TIMEOUT_MS);
    },
    async writeNewFile(p: string, data: Buffer): Promise<void> {
      await sftpWriteNewFile(await sftp(), p, data, uid);
    },
    async rename(from: string, to: string): Promise<void> {
      await sftpRename(await sftp(), from, to);
    },
    async readdir(p: string): Promise<string[]> {
      const s = await sftp();
      const st = await sftpLstatOrNull(s, p);
      if (st === null || !st.isDirectory()) return [];
      return sftpReaddir(s, p);
    },
    async remove(p: string): Promise<void> {
      await sftpRemoveIfPresent(await sftp(), p);
    },
    async ensurePrivateDir(p: string): Promise<void> {
      await sftpEnsurePrivateDir(await sftp(), p, uid);
    },
  };
}
