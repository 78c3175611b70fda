/**
 * The remote-workspace transport over the Docker Engine archive API (docs/runners.md "Remote workspaces"): HEAD
 * for stat, GET for a bounded read parsed here (never extracted), PUT of a one-entry tar built in memory for files
 * and directories, and an argv `exec` of `/bin/mv` / `/bin/rm` for what the archive API cannot do. Built on a
 * dockerode `Container`, so it works against any engine the caller reached (the local socket, or a Swarm node's
 * engine over TLS). Never follows a link in the last component: the engine stats and archives a link as a link.
 */
import * as path from 'node:path';
import type { Container } from 'dockerode';
import { RunnerError } from '../errors/runner-error';
import type { RemoteFileStat, RemoteRead, RemoteReadRefusal, RemoteWorkspaceTransport } from '../remote/workspace-port';
import { execArgv } from './archive-exec';
import { listArchiveDirectory } from './archive-listing';
import { parsePathStatHeader, sameArchiveStat, type ArchivePathStat } from './archive-stat';
import { SingleFileTarReader, TarParser, type TarHeader, type TarRefusal } from './archive-tar';
import { buildSingleEntryTar } from './archive-tar-build';

/** A GET of one file that has not ended within this is abandoned (engine stalled): a transport failure. */
export const ARCHIVE_READ_TIMEOUT_MS = 15_000;
/** Remote paths the transport accepts: absolute, normalized, generated characters only (no NUL, no shell syntax). */
export const ARCHIVE_PATH_RE = /^\/[A-Za-z0-9._+/-]{1,1023}$/;

export interface ArchiveTransportOptions {
  /** uid:gid every file and directory is created with (the container user's); never 0:0 by accident. */
  readonly owner: { readonly uid: number; readonly gid: number };
  /** Headers parsed per directory listing (default ARCHIVE_LIST_MAX_ENTRIES). */
  readonly listMaxEntries?: number;
}

type Readable = NodeJS.ReadableStream & { destroy(err?: Error): void };

function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

function failed(message: string, details: Record<string, unknown>, cause?: unknown): RunnerError {
  return new RunnerError('remote_transport_failed', message, { details, ...(cause === undefined ? {} : { cause }) });
}

/** Refuses any path but an absolute, normalized one of generated characters, with no `..` component. */
export function checkArchivePath(p: string): string {
  const ok = ARCHIVE_PATH_RE.test(p) && path.posix.normalize(p) === p && !p.endsWith('/') && !p.split('/').includes('..');
  if (!ok) throw new RunnerError('remote_path_invalid', 'a remote workspace path is not an absolute, normalized, generated path');
  return p;
}

/** The file-level receipt reason a tar refusal stands for (docs/receipts.md "Remote receipts"). */
export function receiptReasonOf(r: TarRefusal): RemoteReadRefusal {
  switch (r) {
    case 'tar_symlink':
      return 'receipt_symlink';
    case 'tar_too_large':
      return 'receipt_too_large';
    case 'tar_truncated': // the engine stops mid-file when the file grows or shrinks under its copy
      return 'receipt_replaced';
    case 'tar_hardlink':
    case 'tar_not_regular':
    case 'tar_checksum':
    case 'tar_size_field':
    case 'tar_malformed':
    case 'tar_rename_header':
    case 'tar_extra_entry':
    case 'tar_name_mismatch':
      return 'receipt_not_regular';
  }
}

/** HEAD → the parsed stat, null on 404. */
async function headStat(c: Container, p: string): Promise<ArchivePathStat | null> {
  let res: { headers?: Record<string, string | string[] | undefined>; resume?: () => void };
  try {
    res = (await c.infoArchive({ path: p })) as typeof res;
  } catch (e) {
    if (statusOf(e) === 404) return null; // the path (or the container: its exit watch reports that) is absent
    throw failed('the engine refused a stat of the workspace', { op: 'stat' }, e);
  }
  res.resume?.();
  const raw = res.headers?.['x-docker-container-path-stat'];
  const st = parsePathStatHeader(typeof raw === 'string' ? raw : undefined);
  if (st === null) throw failed('the engine sent no usable path stat', { op: 'stat' });
  return st;
}

function sameAsTar(st: ArchivePathStat, h: TarHeader): boolean {
  return h.size === st.size && h.mtimeSec === st.mtimeSec && (h.mode & 0o7777) === st.mode;
}

/** GET one file through the bounded single-entry reader; the stream is destroyed the moment a bound is crossed. */
async function getOneFile(c: Container, p: string, max: number): Promise<ReturnType<SingleFileTarReader['finish']> | null> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ARCHIVE_READ_TIMEOUT_MS);
  let stream: Readable;
  try {
    stream = (await c.getArchive({ path: p, abortSignal: ctl.signal })) as Readable;
  } catch (e) {
    clearTimeout(timer);
    if (statusOf(e) === 404) return null;
    throw failed('the engine refused an archive read', { op: 'read' }, e);
  }
  const reader = new SingleFileTarReader(path.posix.basename(p), max);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const step = reader.write(chunk);
      if (step.kind === 'refused') {
        stream.destroy();
        return { kind: 'refused', refusal: step.refusal };
      }
    }
  } catch (e) {
    if (ctl.signal.aborted) throw failed(`an archive read did not end within ${ARCHIVE_READ_TIMEOUT_MS} ms`, { op: 'read' }, e);
    throw failed('the archive stream failed', { op: 'read' }, e);
  } finally {
    clearTimeout(timer);
  }
  return reader.finish();
}

async function readBounded(c: Container, p: string, max: number): Promise<RemoteRead> {
  const before = await headStat(c, p);
  if (before === null) return { kind: 'missing' };
  if (before.kind === 'symlink') return { kind: 'refused', reason: 'receipt_symlink' };
  if (before.kind !== 'file') return { kind: 'refused', reason: 'receipt_not_regular' };
  if (before.size > max) return { kind: 'refused', reason: 'receipt_too_large' };
  const got = await getOneFile(c, p, max);
  if (got === null) return { kind: 'missing' };
  if (got.kind === 'refused') return { kind: 'refused', reason: receiptReasonOf(got.refusal) };
  if (!sameAsTar(before, got.header)) return { kind: 'refused', reason: 'receipt_replaced' };
  const after = await headStat(c, p);
  if (after === null || !sameArchiveStat(before, after)) return { kind: 'refused', reason: 'receipt_replaced' };
  return { kind: 'ok', data: got.data };
}

/** The first header of a directory's archive (the directory itself): its owner, read without the rest; null if not a dir. */
async function dirOwner(c: Container, p: string): Promise<{ uid: number; gid: number } | null> {
  const stream = (await c.getArchive({ path: p })) as Readable;
  const parser = new TarParser({ maxTotalBytes: 64 * 1024 * 1024, allowPaxPath: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (const ev of parser.write(chunk)) {
        if (ev.kind === 'entry') return ev.header.typeflag === '5' ? { uid: ev.header.uid, gid: ev.header.gid } : null;
      }
    }
    return null;
  } finally {
    stream.destroy();
  }
}

/** The transport for one container; `owner` is the container user every created file and directory belongs to. */
export function dockerArchiveTransport(container: Container, opts: ArchiveTransportOptions): RemoteWorkspaceTransport {
  const { uid, gid } = opts.owner;
  const user = `${uid}:${gid}`;
  const put = async (dir: string, tar: Buffer): Promise<void> => {
    try {
      await container.putArchive(tar, { path: dir, noOverwriteDirNonDir: true });
    } catch (e) {
      throw failed('the engine refused an archive write', { op: 'write', status: statusOf(e) }, e);
    }
  };
  return {
    async lstat(p: string): Promise<RemoteFileStat | null> {
      const st = await headStat(container, checkArchivePath(p));
      return st === null ? null : { kind: st.kind, size: st.size, mode: st.mode, mtimeMs: st.mtimeMs };
    },
    async readBounded(p: string, max: number): Promise<RemoteRead> {
      return readBounded(container, checkArchivePath(p), max);
    },
    async writeNewFile(p: string, data: Buffer): Promise<void> {
      checkArchivePath(p);
      const name = path.posix.basename(p);
      const mtimeSec = Math.floor(Date.now() / 1000);
      await put(path.posix.dirname(p), buildSingleEntryTar({ name, kind: 'file', mode: 0o600, uid, gid, mtimeSec, data }));
    },
    async rename(from: string, to: string): Promise<void> {
      checkArchivePath(from);
      checkArchivePath(to);
      await execArgv(container, ['/bin/mv', '-f', '-T', '--', from, to], user);
    },
    async readdir(p: string): Promise<string[]> {
      return listArchiveDirectory(container, checkArchivePath(p), opts.listMaxEntries);
    },
    async remove(p: string): Promise<void> {
      await execArgv(container, ['/bin/rm', '-f', '--', checkArchivePath(p)], user);
    },
    async ensurePrivateDir(p: string): Promise<void> {
      checkArchivePath(p);
      let st = await headStat(container, p);
      if (st === null) {
        const mtimeSec = Math.floor(Date.now() / 1000);
        await put(
          path.posix.dirname(p),
          buildSingleEntryTar({ name: path.posix.basename(p), kind: 'dir', mode: 0o700, uid, gid, mtimeSec }),
        );
        st = await headStat(container, p);
      }
      const owner = st !== null && st.kind === 'dir' && (st.mode & 0o077) === 0 ? await dirOwner(container, p) : null;
      if (owner === null || owner.uid !== uid || owner.gid !== gid) {
        throw new RunnerError(
          'state_dir_unsafe',
          `remote directory ${p} is not a private directory of the container user (0700, ours, no link)`,
          {
            details: { dir: p },
          },
        );
      }
    },
  };
}
