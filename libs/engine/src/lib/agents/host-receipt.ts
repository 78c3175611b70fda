/**
 * A turn the engine ends itself — cancelled (stop, restart, remove mid-turn) or not delivered — gets a
 * host-made `done.json` `{"v":1,"turn":<id>,"status":"error","error":<why>}` in its turn directory.
 * The inbox file stays (the host never deletes inbox files), so this receipt is what tells the next
 * client process in the same workspace not to answer that item: the agent protocol already says "a
 * turn whose done.json exists is over" (docs/agent.md#3-finishing-a-turn-the-receipt).
 *
 * Order (crash safety): the engine stops watching the turn, writes this receipt, and only THEN makes the
 * turn final in the store. A crash in between leaves an open turn whose workspace holds the host
 * receipt; recovery reads it (`readHostReceipt`) and settles the turn as the host meant, without
 * delivering it again. The other order left a final turn without a receipt: answerable by the next process.
 */
import { DONE_FILE, prepareTurnDir, readTurnReceipt } from '@genswarms/receipts';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

/** `error` of the host-made receipt of a cancelled turn. */
export const TURN_CANCELLED_ERROR = 'cancelled by the orchestrator';
/** `error` of the host-made receipt of a turn the runner could not deliver. */
export const DELIVERY_FAILED_ERROR = 'delivery_failed';
/** `error` of the host-made receipt of a turn that failed inside the engine (a store write threw). */
export const ENGINE_FAILED_ERROR = 'engine_error';
/** `error` of the host-made receipt of a turn whose client exited with it open (the exit's code is in the event). */
export const AGENT_EXITED_ERROR = 'agent_exited';

const HOST_ERRORS: ReadonlySet<string> = new Set([TURN_CANCELLED_ERROR, DELIVERY_FAILED_ERROR, ENGINE_FAILED_ERROR, AGENT_EXITED_ERROR]);
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

function errnoOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null ? (e as { code?: string }).code : undefined;
}

/** Writes a complete temp file inside the opened turn dir and hard-links it as done.json: atomic and exclusive. */
async function linkReceipt(dirFd: number, body: string): Promise<boolean> {
  const base = `/proc/self/fd/${dirFd}`;
  const temp = `${base}/.host-done.${randomBytes(8).toString('hex')}.tmp`;
  const fh = await fsp.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      await fh.writeFile(body);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.link(temp, `${base}/${DONE_FILE}`);
    return true;
  } catch (e) {
    return errnoOf(e) === 'EEXIST'; // someone's done.json is there: the turn is just as over
  } finally {
    // best-effort: the temp name is random and hidden; linked or refused, it only has to go
    await fsp.unlink(temp).catch(() => undefined);
  }
}

/**
 * Writes the host receipt unless a `done.json` is already there (the client finished first: the turn
 * is just as over; it is never replaced). Idempotent. The turn directory goes through the receipt checks (docs/security.md#12-turn-receipts)
 * and is then used through an O_NOFOLLOW descriptor whose path must still be the expected one; any
 * doubt → false, nothing written.
 */
export async function writeHostReceipt(workspaceReal: string, turnId: string, error: string): Promise<boolean> {
  // expected: a turn directory the receipts checks refuse gets no receipt (false), like any doubt below
  const prep = await prepareTurnDir(workspaceReal, turnId).catch(() => ({ kind: 'refused' as const }));
  if (prep.kind !== 'ok') return false;
  // expected: the lstat fails when there is no done.json yet, the usual case
  if ((await fsp.lstat(path.join(prep.dir, DONE_FILE)).catch(() => undefined)) !== undefined) return true;
  // expected: an unresolvable workspace keeps its given path, which only makes the readlink check stricter
  const expected = path.join(await fsp.realpath(workspaceReal).catch(() => workspaceReal), '.genswarms', 'turns', turnId);
  // expected: a turn directory that cannot be opened without following links gets no receipt (false)
  const dir = await fsp.open(prep.dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch(() => undefined);
  if (dir === undefined) return false;
  try {
    // expected: an unreadable descriptor path fails the identity check (false)
    if ((await fsp.readlink(`/proc/self/fd/${dir.fd}`).catch(() => '')) !== expected) return false;
    const body = `${JSON.stringify({ v: 1, turn: turnId, status: 'error', error })}\n`;
    // expected: a receipt that cannot be written is 'not written' (false); the turn ends all the same
    return await linkReceipt(dir.fd, body).catch(() => false);
  } finally {
    await dir.close();
  }
}

/**
 * The `error` of a host-made receipt in the turn's directory (cancelled / delivery_failed: status error,
 * no reply.md), read with the receipt checks; null when there is none. An agent can forge one only for its
 * own turn, which it can fail anyway.
 */
export async function readHostReceipt(workspaceReal: string, turnId: string): Promise<string | null> {
  // expected: an unreadable or refused receipt is no host receipt (null)
  const r = await readTurnReceipt(workspaceReal, turnId).catch(() => undefined);
  if (r?.kind !== 'ok' || r.status !== 'error' || r.reply !== null || r.error === undefined) return null;
  return HOST_ERRORS.has(r.error) ? r.error : null;
}
