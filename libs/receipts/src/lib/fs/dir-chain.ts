import { lstatSync } from 'node:fs';
import type { FileReason } from './reasons';

/** Identity of one directory as seen by lstat. bigint: inode numbers may exceed 2^53. */
export interface DirIdentity {
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

export type DirChainResult =
  | { kind: 'ok'; chain: readonly DirIdentity[] }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: Extract<FileReason, 'receipt_symlink' | 'receipt_not_regular' | 'receipt_replaced'> };

/**
 * The chain checks run on every receipt attempt (~10 per turn) and are synchronous on purpose.
 * An lstat of a cached dentry takes ~2 µs as a direct syscall against ~20–30 µs of event-loop CPU (plus a
 * thread-pool hop) through fs/promises, and it never blocks on a FIFO or device; the answers are identical.
 * An absent entry is the common answer while a turn is pending: `throwIfNoEntry: false` answers it as
 * `undefined` (ENOENT only; ENOTDIR and the rest still throw), without the ~5 µs of a thrown Error.
 */

/**
 * lstat each directory (in order, root first): a link → receipt_symlink, anything but a directory →
 * receipt_not_regular, absent → missing. Never follows a link: lstat only, and the walk stops at the
 * first refusal.
 */
export function snapshotDirChain(paths: readonly string[]): DirChainResult {
  const chain: DirIdentity[] = [];
  for (const path of paths) {
    let st;
    try {
      st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    } catch (error) {
      if (isErrno(error, 'ENOTDIR')) return { kind: 'refused', reason: 'receipt_not_regular' };
      return { kind: 'refused', reason: 'receipt_replaced' };
    }
    if (st === undefined) return { kind: 'missing' };
    if (st.isSymbolicLink()) return { kind: 'refused', reason: 'receipt_symlink' };
    if (!st.isDirectory()) return { kind: 'refused', reason: 'receipt_not_regular' };
    chain.push({ path, dev: st.dev, ino: st.ino });
  }
  return { kind: 'ok', chain };
}

/** Re-lstat every directory of a snapshot; true only when each still has the same (dev, ino) and is a real dir. */
export function isDirChainUnchanged(chain: readonly DirIdentity[]): boolean {
  for (const dir of chain) {
    try {
      const st = lstatSync(dir.path, { bigint: true });
      if (!st.isDirectory() || st.dev !== dir.dev || st.ino !== dir.ino) return false;
    } catch {
      // expected: a directory that cannot be lstat'ed is not the one verified
      return false;
    }
  }
  return true;
}

export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
