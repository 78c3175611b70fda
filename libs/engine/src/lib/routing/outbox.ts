/**
 * CONTRACT §14.3: drain `W/.outbox/*.json`. `.outbox` must be a real directory; each file is read with
 * the receipts reader (bound 1 MiB); before each unlink `.outbox` must keep its (dev, ino); every
 * processed file is deleted, routed or not.
 */
import { readUntrustedFile } from '@genswarms/receipts';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

export const OUTBOX_DIR = '.outbox';
export const OUTBOX_FILE_MAX_BYTES = 1_048_576;
const NAME = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/).describe('a target node Name');

const AskSchema = z.strictObject({
  to: NAME,
  content: z.string().describe('message text'),
  reply_to: z.unknown().refine((v) => v !== null && v !== undefined, 'an ask needs a correlation id').describe('correlation id'),
});
const DirectSchema = z.strictObject({
  to: NAME,
  content: z.string().describe('message text'),
  reply_to: z.null().optional().describe('null means a plain directed send'),
});
const BroadcastSchema = z.strictObject({
  broadcast: z.literal(true).describe('send to every topology target'),
  content: z.string().describe('message text'),
});

export type OutboxMessage =
  | { readonly kind: 'ask'; readonly file: string; readonly to: string; readonly content: string; readonly replyTo: unknown }
  | { readonly kind: 'direct'; readonly file: string; readonly to: string; readonly content: string }
  | { readonly kind: 'broadcast'; readonly file: string; readonly content: string };

export type OutboxDrain =
  | { readonly kind: 'empty' }
  | { readonly kind: 'dir_rejected'; readonly reason: 'not_a_directory' | 'symlink' }
  | { readonly kind: 'drained'; readonly messages: readonly OutboxMessage[]; readonly rejected: readonly { file: string; reason: string }[]; readonly aborted: boolean };

/** Shapes checked in order: ask, directed, broadcast; anything else is rejected. */
export function classifyOutboxMessage(file: string, value: unknown): OutboxMessage | null {
  const ask = AskSchema.safeParse(value);
  if (ask.success) return { kind: 'ask', file, to: ask.data.to, content: ask.data.content, replyTo: ask.data.reply_to };
  const direct = DirectSchema.safeParse(value);
  if (direct.success) return { kind: 'direct', file, to: direct.data.to, content: direct.data.content };
  const broadcast = BroadcastSchema.safeParse(value);
  if (broadcast.success) return { kind: 'broadcast', file, content: broadcast.data.content };
  return null;
}

function parseUtf8Json(data: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data)) as unknown;
  } catch {
    return undefined;
  }
}

type DirId = { dev: bigint; ino: bigint };

async function outboxIdentity(dir: string): Promise<DirId | 'missing' | 'symlink' | 'not_a_directory'> {
  try {
    const st = await fsp.lstat(dir, { bigint: true });
    if (st.isSymbolicLink()) return 'symlink';
    if (!st.isDirectory()) return 'not_a_directory';
    return { dev: st.dev, ino: st.ino };
  } catch {
    return 'missing';
  }
}

/** Drains the outbox of a workspace (its real path). */
export async function drainOutbox(workspaceReal: string): Promise<OutboxDrain> {
  const dir = path.join(workspaceReal, OUTBOX_DIR);
  const id = await outboxIdentity(dir);
  if (id === 'missing') return { kind: 'empty' };
  if (typeof id === 'string') return { kind: 'dir_rejected', reason: id };
  const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  if (names.length === 0) return { kind: 'empty' };
  const messages: OutboxMessage[] = [];
  const rejected: { file: string; reason: string }[] = [];
  for (const name of names) {
    const read = await readUntrustedFile(dir, name, OUTBOX_FILE_MAX_BYTES).catch(() => ({ kind: 'refused' as const, reason: 'invalid_name' }));
    if (read.kind === 'missing') continue;
    const again = await outboxIdentity(dir);
    if (typeof again === 'string' || again.dev !== id.dev || again.ino !== id.ino) {
      return { kind: 'drained', messages, rejected: [...rejected, { file: name, reason: 'outbox_replaced' }], aborted: true };
    }
    await fsp.unlink(path.join(dir, name)).catch(() => undefined);
    if (read.kind === 'refused') {
      rejected.push({ file: name, reason: read.reason });
      continue;
    }
    const msg = classifyOutboxMessage(name, parseUtf8Json(read.data));
    if (msg === null) rejected.push({ file: name, reason: 'invalid_shape' });
    else messages.push(msg);
  }
  return { kind: 'drained', messages, rejected, aborted: false };
}
