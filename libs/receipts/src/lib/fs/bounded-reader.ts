import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { DirIdentity } from './dir-chain';
import { isDirChainUnchanged, isErrno } from './dir-chain';
import type { FileReason } from './reasons';

/**
 * O_NONBLOCK: a FIFO swapped in after lstat must not block the host on open or read. O_CLOEXEC is not
 * exported by Node, but libuv ORs it into every open (the strace spec checks the final flags).
 * The steps are synchronous syscalls (as in dir-chain.ts): a receipt is at most a bounded
 * regular file on the host's own disk, and through fs/promises each step cost ~10× its syscall in
 * event-loop CPU. O_NONBLOCK is what keeps a planted FIFO from blocking, sync or not.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Read chunk size in bytes: small files cost one small buffer, big ones never more than bound + 1. */
const READ_CHUNK_BYTES = 65536;

/** What fstat saw for the bytes returned (the watcher compares these between two reads). */
export interface FileStamp {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
}

export type BoundedRead = { kind: 'ok'; data: Buffer; stamp: FileStamp } | { kind: 'missing' } | { kind: 'refused'; reason: FileReason };

/**
 * docs/receipts.md steps 2-7 for `<chain tip>/<name>`. `chain` is the caller's lstat snapshot of every
 * directory down to the file's directory (the last entry); `name` is a plain basename.
 * Never follows a link, never opens anything it has not lstat'ed as a regular file, never reads more
 * than maxBytes + 1 bytes.
 */
export function readBoundedFile(chain: readonly DirIdentity[], name: string, maxBytes: number): BoundedRead {
  const dir = chain[chain.length - 1];
  if (dir === undefined) throw new Error('readBoundedFile: empty directory chain');
  const path = join(dir.path, name);
  const seen = lstatFile(path, maxBytes);
  if (seen.kind !== 'ok') return seen;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return { kind: 'refused', reason: isErrno(error, 'ELOOP') ? 'receipt_symlink' : 'receipt_replaced' };
  }
  let result: BoundedRead;
  try {
    result = readOpened(fd, path, seen.dev, seen.ino, maxBytes);
  } finally {
    closeSync(fd);
  }
  if (result.kind === 'ok' && !isDirChainUnchanged(chain)) return { kind: 'refused', reason: 'receipt_replaced' };
  return result;
}

type Lstatted = { kind: 'ok'; dev: bigint; ino: bigint } | { kind: 'missing' } | { kind: 'refused'; reason: FileReason };

function lstatFile(path: string, maxBytes: number): Lstatted {
  let st;
  try {
    // an absent file answers undefined, not a thrown Error (dir-chain.ts): the common case while a turn is pending
    st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    // expected: any other lstat failure (ENOTDIR, EACCES…) means the file is not the one to read
    return { kind: 'refused', reason: 'receipt_replaced' };
  }
  if (st === undefined) return { kind: 'missing' };
  if (st.isSymbolicLink()) return { kind: 'refused', reason: 'receipt_symlink' };
  if (!st.isFile()) return { kind: 'refused', reason: 'receipt_not_regular' };
  if (st.size > BigInt(maxBytes)) return { kind: 'refused', reason: 'receipt_too_large' };
  return { kind: 'ok', dev: st.dev, ino: st.ino };
}

/** Steps 4-6 on the descriptor: identity, type, link count, size, /proc/self/fd path, bounded read. */
function readOpened(fd: number, path: string, dev: bigint, ino: bigint, maxBytes: number): BoundedRead {
  const st = fstatSync(fd, { bigint: true });
  if (st.dev !== dev || st.ino !== ino) return { kind: 'refused', reason: 'receipt_replaced' };
  if (!st.isFile() || st.nlink !== 1n) return { kind: 'refused', reason: 'receipt_not_regular' };
  if (st.size > BigInt(maxBytes)) return { kind: 'refused', reason: 'receipt_too_large' };
  if (!isDescriptorAt(fd, path)) return { kind: 'refused', reason: 'receipt_replaced' };
  const data = readAtMost(fd, maxBytes + 1);
  if (data.length > maxBytes) return { kind: 'refused', reason: 'receipt_too_large' };
  return { kind: 'ok', data, stamp: { size: st.size, mtimeNs: st.mtimeNs, ino: st.ino } };
}

/**
 * Linux: the kernel's name for the open descriptor must be exactly the expected path (catches a
 * directory swapped for a link between lstat and open). Elsewhere there is no /proc: the (dev, ino)
 * checks stand alone.
 */
function isDescriptorAt(fd: number, expectedPath: string): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === expectedPath;
  } catch {
    // expected: an unreadable descriptor path fails the identity check
    return false;
  }
}

/** Reads until EOF or `limit` bytes, whichever comes first; a file growing during the read is cut at `limit`. */
function readAtMost(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, limit - total));
    const bytesRead = readSync(fd, chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}
