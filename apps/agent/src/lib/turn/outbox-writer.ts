import { join } from 'node:path';
import { ensureRealDir, writeFileAtomically } from '../fs/safe-fs';
import type { AtMessage } from './at-lines';

/**
 * Writes each message as `<workspace>/.outbox/<ms>-<pid>-<n>.json` `{to, content}` (temp + rename, so the
 * engine never sees half a file; lexical order = write order within this process).
 * Returns how many were written; `.outbox` that is a link or not a directory → nothing written, -1.
 */
export async function writeOutboxMessages(workspace: string, messages: readonly AtMessage[], counter: { next: number }): Promise<number> {
  if (messages.length === 0) return 0;
  const dir = join(workspace, '.outbox');
  if (!(await ensureRealDir(dir))) return -1;
  const stamp = String(Date.now()).padStart(15, '0');
  for (const message of messages) {
    counter.next += 1;
    const name = `${stamp}-${process.pid}-${String(counter.next).padStart(6, '0')}.json`;
    await writeFileAtomically(dir, name, `${JSON.stringify({ to: message.to, content: message.content })}\n`);
  }
  return messages.length;
}
