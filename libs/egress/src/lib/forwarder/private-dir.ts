import { chmod, chown, lstat, mkdir, rm, rmdir, unlink } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { EgressError } from '../errors/egress-error';

/**
 * Creates `dir` (and parents) 0700 and checks it is a real directory owned by us; chmod explicit (umask not trusted).
 * With `clientGid` (a root server's agent group) the leaf becomes group-owned by it and 0710: the agent may
 * reach the socket inside by name, never list, create or replace anything.
 */
export async function ensureEgressDir(dir: string, clientGid?: number): Promise<void> {
  if (!isAbsolute(dir)) throw new EgressError('forwarder_failed', 'egress directory must be an absolute path');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new EgressError('forwarder_failed', 'egress directory is a symlink or not a directory');
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new EgressError('forwarder_failed', 'egress directory is not owned by the server user');
  if (clientGid !== undefined && uid !== undefined) await chown(dir, uid, clientGid);
  await chmod(dir, clientGid === undefined ? 0o700 : 0o710);
}

/** Removes a stale socket (or file) at `path`; refuses to touch a directory there. */
export async function removeStaleSocket(path: string): Promise<void> {
  let st;
  try {
    st = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new EgressError('forwarder_failed', 'egress socket path cannot be inspected', { cause: err });
  }
  if (st.isDirectory()) throw new EgressError('forwarder_failed', 'a directory occupies the egress socket path');
  await unlink(path);
}

/** True when `path` is a unix socket now. */
export async function isSocket(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSocket();
  } catch {
    return false; // expected: not there yet
  }
}

/**
 * Identity of a file, to release it only while it is still ours: device + inode + birth time. The
 * inode alone is not enough — a successor's socket created right after ours was unlinked often gets
 * the very same inode number (seen on ext4); the nanosecond birth time tells them apart.
 */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly birthtimeNs: bigint;
}

export async function identityOf(path: string): Promise<FileIdentity | undefined> {
  try {
    const st = await lstat(path, { bigint: true });
    return { dev: st.dev, ino: st.ino, birthtimeNs: st.birthtimeNs };
  } catch {
    return undefined; // expected: the file is gone
  }
}

function isSameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.birthtimeNs === b.birthtimeNs;
}

/**
 * Removes the socket at `path` only if it is still `ours` (undefined: whatever socket is there — for a start
 * that failed, when nothing else can have taken the path yet). Never a directory.
 */
export async function releaseSocket(path: string, ours: FileIdentity | undefined): Promise<void> {
  const now = await identityOf(path);
  if (now === undefined) return;
  if (ours === undefined ? await isSocket(path) : isSameFile(now, ours)) await rm(path, { force: true });
}

/**
 * Removes the socket only if it is still the one our socat created (a successor forwarder may have
 * replaced it), then the directory only if it is empty. Never touches a successor's socket.
 */
export async function releaseEgressDir(dir: string, socketPath: string, ours: FileIdentity | undefined): Promise<void> {
  const now = await identityOf(socketPath);
  if (now !== undefined && ours !== undefined && isSameFile(now, ours)) await rm(socketPath, { force: true });
  try {
    await rmdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
  }
}

/** Removal of a directory we created for a start that failed (nothing else can be in it yet). */
export async function removeEgressDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
