/** Small helpers of the ssh specs that run against a real sshd on this host (so /proc here is the remote host's). */
import { readFileSync } from 'node:fs';
import { newTurnId, prepareTurnDir, writeFileUnder } from '@genswarms/receipts';
import type { RunnerHandle } from '../../src/lib/port';

/** Alive and not a zombie (an orphaned client is reaped by whoever adopted it, maybe later). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // expected: no such process
  }
}

/** One turn through the handle: the inbox file in the local mirror, deliver, watch the receipt. */
export async function runTurn(h: RunnerHandle, ws: string, content: string) {
  const id = newTurnId();
  if ((await prepareTurnDir(ws, id)).kind !== 'ok') throw new Error('turn dir');
  const body = JSON.stringify({ from: 'user', content, seq: 1, timestamp: new Date().toISOString(), turn: id });
  if ((await writeFileUnder(ws, ['.inbox'], `0001_user_${id}.json`, body)).kind !== 'ok') throw new Error('inbox');
  await h.deliver({ turnId: id, seq: 1, from: 'user', content, clientTurnsDir: '' });
  if (h.watchReceipt === undefined) throw new Error('the ssh handle watches receipts');
  return h.watchReceipt(id, { signal: new AbortController().signal });
}

/** The pid the sh-client fixture printed first into the remote client.log (`started pid N`), or 0. */
export function clientPidOf(remoteDir: string): number {
  try {
    return Number(/^started pid ([0-9]+)$/m.exec(readFileSync(`${remoteDir}/client.log`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // expected: no log yet
  }
}
