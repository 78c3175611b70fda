import { mkdir } from 'node:fs/promises';
import { isDirChainUnchanged, isErrno, snapshotDirChain } from '../fs/dir-chain';
import type { DirIdentity } from '../fs/dir-chain';
import { turnDirChain } from './turn-paths';

/** Mode of every directory the host creates for receipts. */
export const TURN_DIR_MODE = 0o700;

export type PreparedTurnDir = { kind: 'ok'; dir: string } | { kind: 'refused'; reason: 'receipt_symlink' | 'receipt_not_regular' };

/**
 * Creates W/.genswarms, turns and <turnId> (0700) as needed, lstat-checking each component first and
 * after creation: a link → receipt_symlink, a non-directory → receipt_not_regular. An existing real
 * directory (a resumed turn) is kept. Throws ReceiptError for a bad id or workspace path.
 */
export async function prepareTurnDir(workspaceReal: string, turnId: string): Promise<PreparedTurnDir> {
  const paths = turnDirChain(workspaceReal, turnId);
  const verified: DirIdentity[] = [];
  for (const [index, path] of paths.entries()) {
    // The workspace itself is never created here: only .genswarms, turns and the turn directory.
    const step = await ensureRealDir(path, verified, index > 0);
    if (step.kind === 'refused') return step;
    verified.push(step.identity);
  }
  const dir = verified[verified.length - 1];
  if (dir === undefined || !(await isDirChainUnchanged(verified))) return { kind: 'refused', reason: 'receipt_symlink' };
  return { kind: 'ok', dir: dir.path };
}

type DirStep = { kind: 'ok'; identity: DirIdentity } | { kind: 'refused'; reason: 'receipt_symlink' | 'receipt_not_regular' };

async function ensureRealDir(path: string, parents: readonly DirIdentity[], create: boolean): Promise<DirStep> {
  let snap = await snapshotDirChain([path]);
  if (snap.kind === 'missing' && create) {
    // mkdir resolves the parent path again: re-check the parents right before, and the result after.
    if (!(await isDirChainUnchanged(parents))) return { kind: 'refused', reason: 'receipt_symlink' };
    try {
      await mkdir(path, { mode: TURN_DIR_MODE });
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) return { kind: 'refused', reason: 'receipt_not_regular' };
    }
    snap = await snapshotDirChain([path]);
  }
  if (snap.kind === 'missing') return { kind: 'refused', reason: 'receipt_not_regular' };
  if (snap.kind === 'refused') return { kind: 'refused', reason: snap.reason === 'receipt_symlink' ? 'receipt_symlink' : 'receipt_not_regular' };
  const identity = snap.chain[0];
  if (identity === undefined) return { kind: 'refused', reason: 'receipt_not_regular' };
  return { kind: 'ok', identity };
}
