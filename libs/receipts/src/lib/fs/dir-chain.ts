import { lstat } from 'node:fs/promises';
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
 * lstat each directory (in order, root first): a link → receipt_symlink, anything but a directory →
 * receipt_not_regular, absent → missing. Never follows a link: lstat only, and the walk stops at the
 * first refusal.
 */
export async function snapshotDirChain(paths: readonly string[]): Promise<DirChainResult> {
  const chain: DirIdentity[] = [];
  for (const path of paths) {
    let st;
    try {
      st = await lstat(path, { bigint: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return { kind: 'missing' };
      if (isErrno(error, 'ENOTDIR')) return { kind: 'refused', reason: 'receipt_not_regular' };
      return { kind: 'refused', reason: 'receipt_replaced' };
    }
    if (st.isSymbolicLink()) return { kind: 'refused', reason: 'receipt_symlink' };
    if (!st.isDirectory()) return { kind: 'refused', reason: 'receipt_not_regular' };
    chain.push({ path, dev: st.dev, ino: st.ino });
  }
  return { kind: 'ok', chain };
}

/** Re-lstat every directory of a snapshot; true only when each still has the same (dev, ino) and is a real dir. */
export async function isDirChainUnchanged(chain: readonly DirIdentity[]): Promise<boolean> {
  for (const dir of chain) {
    try {
      const st = await lstat(dir.path, { bigint: true });
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
