import { closePinnedDir, isPinnedDirInPlace, openPinnedDir, PINNED_DIR_MODE } from '../fs/pinned-dir';
import { assertRealPathForm } from '../fs/path-rules';
import { turnDirComponents } from './turn-paths';

/** Mode of every directory the host creates for receipts (the pinned walk creates them). */
export const TURN_DIR_MODE = PINNED_DIR_MODE;

export type PreparedTurnDir = { kind: 'ok'; dir: string } | { kind: 'refused'; reason: 'receipt_symlink' | 'receipt_not_regular' };

/**
 * Creates W/.genswarms, turns and <turnId> (0700) as needed through the same descriptor walk as the inbox
 * writes: each directory is opened O_NOFOLLOW relative to the one already pinned and created only inside it,
 * so an agent swapping `.genswarms` or `turns` for a link meanwhile can never make the host create a
 * directory outside W (a root host hands what it creates to W's owner, as for the inbox). A link →
 * receipt_symlink; a non-directory, a missing W, a third owner or another device → receipt_not_regular.
 * An existing real directory (a resumed turn) is kept. W itself is never created.
 * Throws ReceiptError for a bad id or workspace path.
 */
export async function prepareTurnDir(workspaceReal: string, turnId: string): Promise<PreparedTurnDir> {
  assertRealPathForm(workspaceReal, 'workspaceReal');
  const walk = await openPinnedDir(workspaceReal, turnDirComponents(turnId));
  if (walk.kind === 'refused') return { kind: 'refused', reason: walk.fault === 'link' ? 'receipt_symlink' : 'receipt_not_regular' };
  try {
    // the path handed out must still name the directory just pinned (no component was moved meanwhile)
    if (!isPinnedDirInPlace(walk.dir)) return { kind: 'refused', reason: 'receipt_symlink' };
    return { kind: 'ok', dir: walk.dir.path };
  } finally {
    closePinnedDir(walk.dir);
  }
}
