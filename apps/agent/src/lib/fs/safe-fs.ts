import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Reads never follow a link and never block on a planted FIFO. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Temp files: exclusive, never through a link. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export type BoundedRead =
  | { kind: 'ok'; data: Buffer }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: 'symlink' | 'not_regular' | 'too_large' | 'replaced' | 'unreadable' };

/** lstat → open O_NOFOLLOW|O_NONBLOCK → fstat (same inode, regular, size) → read at most maxBytes + 1. */
export async function readBoundedFile(path: string, maxBytes: number): Promise<BoundedRead> {
  const before = await lstat(path).catch((error: NodeJS.ErrnoException) => error);
  if (before instanceof Error) return before.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'refused', reason: 'unreadable' };
  if (before.isSymbolicLink()) return { kind: 'refused', reason: 'symlink' };
  if (!before.isFile()) return { kind: 'refused', reason: 'not_regular' };
  if (before.size > maxBytes) return { kind: 'refused', reason: 'too_large' };
  const handle = await open(path, READ_FLAGS).catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error) return { kind: 'refused', reason: handle.code === 'ELOOP' ? 'symlink' : 'replaced' };
  try {
    const stat = await handle.stat();
    if (stat.ino !== before.ino || stat.dev !== before.dev) return { kind: 'refused', reason: 'replaced' };
    if (!stat.isFile()) return { kind: 'refused', reason: 'not_regular' };
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) return { kind: 'refused', reason: 'too_large' };
    return { kind: 'ok', data: buffer.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

/** What is at `path`, without following a link. */
export async function pathKind(path: string): Promise<'missing' | 'directory' | 'symlink' | 'other'> {
  try {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return 'symlink';
    return stat.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/** Ensures `dir` is a real directory, creating it (0700, with parents) only when missing. */
export async function ensureRealDir(dir: string): Promise<boolean> {
  let kind = await pathKind(dir);
  if (kind === 'missing') {
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    kind = await pathKind(dir);
  }
  return kind === 'directory';
}

/**
 * Writes `<dir>/<name>` atomically: exclusive 0600 temp `.<name>.<random>.tmp` in the same dir, fsync,
 * then rename (which replaces a planted link at `name`, never follows it). `dir` must already be real.
 */
export async function writeFileAtomically(dir: string, name: string, data: string): Promise<string> {
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const target = join(dir, name);
  const handle = await open(temp, TEMP_FLAGS, FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined); // best-effort: the temp name is ours and random
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined); // best-effort: the temp name is ours and random
    throw error;
  }
  return target;
}
