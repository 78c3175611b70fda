/** docs/messaging.md: the headless inbox file `W/.inbox/<seq 4-digit>_<from>.json`, written safely. */
import { placeFileUnder } from '@genswarms/receipts';
import type { TurnRow } from '../store/store';

export function inboxFileName(seq: number, from: string): string {
  return `${String(seq).padStart(4, '0')}_${from}.json`;
}

/**
 * The file is renamed into place before its data is flushed (the flush overlaps the delivery);
 * `flushed` settles once it is on disk. The caller awaits it before recording the turn as delivered: a
 * turn not recorded delivered is delivered afresh after a crash, with its inbox file written again.
 */
export async function writeInboxFile(
  workspaceReal: string,
  turn: TurnRow,
  timestamp: string,
): Promise<{ ok: true; flushed: Promise<void> } | { ok: false; detail: string }> {
  const body = JSON.stringify({ from: turn.from, content: turn.content, seq: turn.seq, timestamp, turn: turn.id });
  const r = await placeFileUnder(workspaceReal, ['.inbox'], inboxFileName(turn.seq, turn.from), body);
  return r.kind === 'ok' ? { ok: true, flushed: r.flushed } : { ok: false, detail: r.detail };
}
