/**
 * A turn the engine ends itself — cancelled (stop, restart, remove mid-turn) or not delivered — gets a
 * host-made `done.json` `{"v":1,"turn":<id>,"status":"error","error":<why>}` in its turn directory.
 * The inbox file stays (the host never deletes inbox files), so this receipt is what tells the next
 * client process in the same workspace not to answer that item: the agent protocol already says "a
 * turn whose done.json exists is over" (docs/agent.md §3). It is written only after the store has made
 * the turn final, so the engine never watches — never reads as the agent's receipt — a turn that has it.
 */
import { DONE_FILE, prepareTurnDir, writeFileSafely } from '@genswarms/receipts';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

/** `error` of the host-made receipt of a cancelled turn. */
export const TURN_CANCELLED_ERROR = 'cancelled by the orchestrator';

/**
 * Writes the host receipt unless a `done.json` is already there (the client finished first: the turn
 * is just as over). The turn directory goes through the §11 checks; any doubt → false, nothing written.
 */
export async function writeHostReceipt(workspaceReal: string, turnId: string, error: string): Promise<boolean> {
  const prep = await prepareTurnDir(workspaceReal, turnId).catch(() => ({ kind: 'refused' as const }));
  if (prep.kind !== 'ok') return false;
  const existing = await fsp.lstat(path.join(prep.dir, DONE_FILE)).catch(() => undefined);
  if (existing !== undefined) return true;
  const body = `${JSON.stringify({ v: 1, turn: turnId, status: 'error', error })}\n`;
  const written = await writeFileSafely(prep.dir, DONE_FILE, body).catch(() => ({ kind: 'refused' as const }));
  return written.kind === 'ok';
}
