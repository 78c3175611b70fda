import { join } from 'node:path';
import { ensureRealDir, pathKind, writeFileAtomically } from '../fs/safe-fs';

/** What a turn produced: an answer (status ok; no reply = keep the reply.md already there) or an error (status error, optional reply text). */
export type TurnOutcome = { kind: 'ok'; reply?: string } | { kind: 'error'; error: string; reply?: string };

/** docs/receipts.md bound on `done.json` `error` (chars). */
export const RECEIPT_ERROR_MAX_CHARS = 4096;
/** docs/receipts.md bound on reply.md (bytes); longer answers are cut at a UTF-8 boundary. */
export const REPLY_MAX_BYTES = 1024 * 1024;

/** True when `<turnsDir>/<turn>/done.json` exists (any kind): the turn is finished, never redo it. */
export async function isTurnDone(turnsDir: string, turn: string): Promise<boolean> {
  return (await pathKind(join(turnsDir, turn, 'done.json'))) !== 'missing';
}

/**
 * Writes reply.md then done.json, each atomically, in `<turnsDir>/<turn>/` (created 0700 only when
 * missing — the host pre-creates it). A turn dir that is a link or not a directory is refused.
 */
export async function writeReceipt(turnsDir: string, turn: string, outcome: TurnOutcome): Promise<void> {
  const dir = join(turnsDir, turn);
  if (!(await ensureRealDir(dir))) throw new Error('turn directory is not a real directory');
  if (outcome.reply !== undefined) await writeFileAtomically(dir, 'reply.md', truncateUtf8(outcome.reply, REPLY_MAX_BYTES));
  const done =
    outcome.kind === 'ok'
      ? { v: 1, turn, status: 'ok' }
      : { v: 1, turn, status: 'error', error: outcome.error.slice(0, RECEIPT_ERROR_MAX_CHARS) };
  await writeFileAtomically(dir, 'done.json', `${JSON.stringify(done)}\n`);
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder('utf-8').decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
}
