import { chmod, lstat, mkdir, rm, unlink } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { EgressError } from '../errors/egress-error';

/** Creates `dir` (and parents) 0700 and checks it is a real directory owned by us; chmod explicit (umask not trusted). */
export async function ensureEgressDir(dir: string): Promise<void> {
  if (!isAbsolute(dir)) throw new EgressError('forwarder_failed', 'egress directory must be an absolute path');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw new EgressError('forwarder_failed', 'egress directory is a symlink or not a directory');
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new EgressError('forwarder_failed', 'egress directory is not owned by the server user');
  await chmod(dir, 0o700);
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
    return false; // not there yet
  }
}

/** Best-effort removal of the socket and the egress directory (stop and failed starts). */
export async function removeEgressDir(dir: string, socketPath: string): Promise<void> {
  await rm(socketPath, { force: true });
  await rm(dir, { recursive: true, force: true });
}
