/**
 * docs/messaging.md: drain `W/.outbox/*.json`. `.outbox` must be a real directory; each file is read with
 * the receipts reader (bound 1 MiB); before each unlink `.outbox` must keep its (dev, ino); every
 * processed file is deleted, routed or not.
 *
 * Hardening beyond the letter of the contract (all of `.outbox` is agent-written):
 * - the directory is opened once (O_DIRECTORY|O_NOFOLLOW, checked through /proc/self/fd) and listed and
 *   unlinked through that descriptor, so a `.outbox` swapped for a link between the (dev, ino) check and
 *   the unlink still cannot make the host delete a file elsewhere;
 * - entries are handed to the caller one at a time (never thousands of 1 MiB bodies held at once);
 * - a name that is not valid UTF-8 is rejected (`invalid_name`) and removed, not skipped forever;
 * - an entry that cannot be removed (a non-empty directory) is reported once per (name, inode), not on
 *   every poll.
 */
import { NAME_RE } from '@genswarms/ir-gate';
import { readUntrustedFile } from '@genswarms/receipts';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

export const OUTBOX_DIR = '.outbox';
export const OUTBOX_FILE_MAX_BYTES = 1_048_576;
const NAME = z.string().regex(NAME_RE).describe('a target node Name');
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;
const JSON_SUFFIX = Buffer.from('.json');
const DOT = 0x2e;

const AskSchema = z.strictObject({
  to: NAME,
  content: z.string().describe('message text'),
  reply_to: z
    .unknown()
    .refine((v) => v !== null && v !== undefined, 'an ask needs a correlation id')
    .describe('correlation id'),
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

export type OutboxEntry =
  | { readonly kind: 'message'; readonly message: OutboxMessage }
  | { readonly kind: 'rejected'; readonly file: string; readonly reason: string };

export type OutboxDrain =
  | { readonly kind: 'empty' }
  | { readonly kind: 'dir_rejected'; readonly reason: 'not_a_directory' | 'symlink' }
  | { readonly kind: 'drained'; readonly processed: number; readonly aborted: boolean };

/** Per-session memory of entries that could not be removed (reported once). */
export interface OutboxMemo {
  stuck: Set<string>;
}

export function newOutboxMemo(): OutboxMemo {
  return { stuck: new Set() };
}

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
    // expected: invalid UTF-8 or JSON is a rejected entry (undefined)
    return undefined;
  }
}

/** The UTF-8 name, or null when the bytes are not valid UTF-8. */
function decodeName(raw: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    // expected: a name that is not UTF-8 is rejected as invalid_name (null)
    return null;
  }
}

type DirId = { dev: bigint; ino: bigint };

/** Synchronous on purpose: one lstat per drain, ~2 µs as a syscall against ~25 µs of loop CPU via fs/promises. */
function outboxIdentity(dir: string): DirId | 'missing' | 'symlink' | 'not_a_directory' {
  try {
    const st = fs.lstatSync(dir, { bigint: true });
    if (st.isSymbolicLink()) return 'symlink';
    if (!st.isDirectory()) return 'not_a_directory';
    return { dev: st.dev, ino: st.ino };
  } catch {
    // expected: no .outbox (or one we may not lstat) is 'missing'
    return 'missing';
  }
}

function sameDir(a: DirId | string, b: DirId): boolean {
  return typeof a !== 'string' && a.dev === b.dev && a.ino === b.ino;
}

/** `.outbox` opened without following a link, still the lstat'ed directory, at its expected path. */
async function openPinned(dir: string, id: DirId): Promise<fsp.FileHandle | null> {
  // expected: an .outbox that cannot be opened without following links is not pinned (null)
  const handle = await fsp.open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch(() => null);
  if (handle === null) return null;
  // expected: a failed fstat or readlink fails the identity check below
  const st = await handle.stat({ bigint: true }).catch(() => null);
  // expected: as above
  const at = await fsp.readlink(`/proc/self/fd/${handle.fd}`).catch(() => '');
  if (st !== null && st.dev === id.dev && st.ino === id.ino && at === dir) return handle;
  await handle.close();
  return null;
}

/** `*.json`, not hidden, in lexical (byte) order. */
async function listJson(pinned: string): Promise<Buffer[]> {
  // expected: an unlistable pinned dir lists nothing this poll; the next poll retries
  const raw = await fsp.readdir(pinned, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return raw
    .filter((n) => n.length > JSON_SUFFIX.length && n[0] !== DOT && n.subarray(n.length - JSON_SUFFIX.length).equals(JSON_SUFFIX))
    .sort(Buffer.compare);
}

/** Removes the entry itself (never a link target) inside the pinned directory; false when it is still there. */
async function removeEntry(pinned: string, raw: Buffer): Promise<boolean> {
  const p = Buffer.concat([Buffer.from(`${pinned}/`), raw]);
  // expected: the boolean is the answer; an undeletable entry is memoised and reported once
  const gone = await fsp.unlink(p).then(
    () => true,
    () => false,
  );
  if (gone) return true;
  // expected: as above; a directory entry is tried with rmdir, and one that vanished meanwhile counts as removed
  return fsp.rmdir(p).then(
    () => true,
    () => isGone(p),
  );
}

/** True when nothing is at `p` any more. */
function isGone(p: Buffer): Promise<boolean> {
  // expected: lstat failing is the answer (the entry is gone)
  return fsp.lstat(p).then(
    () => false,
    () => true,
  );
}

async function entryKey(pinned: string, raw: Buffer): Promise<string | null> {
  // expected: an entry gone since the listing has no key (null)
  const st = await fsp.lstat(Buffer.concat([Buffer.from(`${pinned}/`), raw]), { bigint: true }).catch(() => null);
  return st === null ? null : `${st.ino}:${raw.toString('hex')}`;
}

async function readEntry(dir: string, name: string | null): Promise<OutboxEntry | 'missing'> {
  if (name === null) return { kind: 'rejected', file: '(invalid utf-8 name)', reason: 'invalid_name' };
  // expected: a read the receipts checks refuse (or that fails) is a rejected entry
  const read = await readUntrustedFile(dir, name, OUTBOX_FILE_MAX_BYTES).catch(() => ({
    kind: 'refused' as const,
    reason: 'invalid_name',
  }));
  if (read.kind === 'missing') return 'missing';
  if (read.kind === 'refused') return { kind: 'rejected', file: name, reason: read.reason };
  const message = classifyOutboxMessage(name, parseUtf8Json(read.data));
  return message === null ? { kind: 'rejected', file: name, reason: 'invalid_shape' } : { kind: 'message', message };
}

/** Drains the outbox of a workspace (its real path), handing each entry to `onEntry` in order. */
export async function drainOutbox(
  workspaceReal: string,
  onEntry: (entry: OutboxEntry) => Promise<void>,
  memo: OutboxMemo = newOutboxMemo(),
): Promise<OutboxDrain> {
  const dir = path.join(workspaceReal, OUTBOX_DIR);
  const id = outboxIdentity(dir);
  if (id === 'missing') return { kind: 'empty' };
  if (typeof id === 'string') return { kind: 'dir_rejected', reason: id };
  const handle = await openPinned(dir, id);
  if (handle === null) return { kind: 'drained', processed: 0, aborted: true };
  try {
    return await drainPinned(dir, `/proc/self/fd/${handle.fd}`, id, onEntry, memo);
  } finally {
    await handle.close();
  }
}

async function drainPinned(
  dir: string,
  pinned: string,
  id: DirId,
  onEntry: (entry: OutboxEntry) => Promise<void>,
  memo: OutboxMemo,
): Promise<OutboxDrain> {
  const names = await listJson(pinned);
  if (names.length === 0) return { kind: 'empty' };
  const stillStuck = new Set<string>();
  let processed = 0;
  for (const raw of names) {
    const key = await entryKey(pinned, raw);
    if (key === null) continue;
    if (memo.stuck.has(key)) {
      stillStuck.add(key);
      continue;
    }
    const entry = await readEntry(dir, decodeName(raw));
    if (entry === 'missing') continue;
    if (!sameDir(outboxIdentity(dir), id)) {
      await onEntry({ kind: 'rejected', file: entry.kind === 'message' ? entry.message.file : entry.file, reason: 'outbox_replaced' });
      memo.stuck = stillStuck;
      return { kind: 'drained', processed, aborted: true };
    }
    if (!(await removeEntry(pinned, raw))) stillStuck.add(key);
    processed += 1;
    await onEntry(entry);
  }
  memo.stuck = stillStuck;
  return { kind: 'drained', processed, aborted: false };
}
