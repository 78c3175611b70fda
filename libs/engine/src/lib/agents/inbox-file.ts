/** docs/messaging.md: the headless inbox file `W/.inbox/<seq 4-digit>_<from>.json`, written safely. */
import { writeFileUnder } from '@genswarms/receipts';
import type { TurnRow } from '../store/store';

export function inboxFileName(seq: number, from: string): string {
  return `${String(seq).padStart(4, '0')}_${from}.json`;
}

export async function writeInboxFile(
  workspaceReal: string,
  turn: TurnRow,
  timestamp: string,
): Promise<{ ok: true } | { ok: false; detail: string }> {
  const body = JSON.stringify({ from: turn.from, content: turn.content, seq: turn.seq, timestamp, turn: turn.id });
  const r = await writeFileUnder(workspaceReal, ['.inbox'], inboxFileName(turn.seq, turn.from), body);
  return r.kind === 'ok' ? { ok: true } : { ok: false, detail: r.detail };
}
