import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readBoundedFile, pathKind } from '../fs/safe-fs';
import { OPERATOR_SENDER, TURN_ID_RE, isName } from '../config/names';
import { integer, object, oneOf, string, validate } from '../validate/strict';

/** Largest inbox file read (bytes); larger files are skipped, never loaded. */
export const INBOX_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** `<seq>_<from>.json`, seq zero-padded to at least 4 digits (docs/messaging.md). Temp files start with `.`. */
const INBOX_NAME_RE = /^([0-9]{4,15})_([A-Za-z0-9_-]{1,65})\.json$/;

/** docs/messaging.md, exactly these keys. `seq` may be a number or a digit string. */
export const InboxItemSchema = object(
  {
    from: string(), // sender: a Name, or `_operator` for tasks
    content: string(), // the task or message text
    seq: oneOf(integer(), string({ pattern: /^[0-9]{1,15}$/ })), // per-agent counter
    timestamp: string(), // ISO-8601 time the engine wrote the item
    turn: string({ pattern: TURN_ID_RE }), // engine-made turn id; becomes a path component
  },
  'strict',
);

export interface InboxItem {
  readonly file: string;
  readonly seq: number;
  readonly from: string;
  readonly content: string;
  readonly turn: string;
  /** When the engine wrote the item (as sent; may be unparsable): the start of the turn's time budget. */
  readonly timestamp: string;
}

export interface InboxEntry {
  readonly file: string;
  readonly seq: number;
  readonly from: string;
}

export type InboxListing = { kind: 'ok'; entries: readonly InboxEntry[] } | { kind: 'missing' } | { kind: 'unsafe'; detail: string };

export type InboxRead = { kind: 'ok'; item: InboxItem } | { kind: 'skipped'; reason: string };

/** Lists `<workspace>/.inbox` item files in seq order. `.inbox` that is a link or not a directory → unsafe. */
export async function listInbox(inboxDir: string): Promise<InboxListing> {
  const kind = await pathKind(inboxDir);
  if (kind === 'missing') return { kind: 'missing' };
  if (kind !== 'directory') return { kind: 'unsafe', detail: kind === 'symlink' ? '.inbox is a symlink' : '.inbox is not a directory' };
  const entries: InboxEntry[] = [];
  for (const file of await readdir(inboxDir)) {
    const m = INBOX_NAME_RE.exec(file);
    if (m === null || m[1] === undefined || m[2] === undefined) continue; // replies/, temp files, strangers
    if (!isSender(m[2])) continue;
    entries.push({ file, seq: Number(m[1]), from: m[2] });
  }
  entries.sort((a, b) => a.seq - b.seq || (a.file < b.file ? -1 : 1));
  return { kind: 'ok', entries };
}

/** Reads one item: never through a link, bounded, strict JSON shape, seq/from must agree with the name. */
export async function readInboxItem(inboxDir: string, entry: InboxEntry): Promise<InboxRead> {
  const read = await readBoundedFile(join(inboxDir, entry.file), INBOX_FILE_MAX_BYTES);
  if (read.kind === 'missing') return { kind: 'skipped', reason: 'vanished' };
  if (read.kind === 'refused') return { kind: 'skipped', reason: read.reason };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.data)) as unknown;
  } catch {
    // expected: malformed inbox JSON is a skipped item
    return { kind: 'skipped', reason: 'malformed JSON' };
  }
  const parsed = validate(InboxItemSchema, json);
  if (parsed.kind === 'invalid')
    return { kind: 'skipped', reason: `malformed item (${parsed.path === '' ? '(root)' : parsed.path}: ${parsed.reason})` };
  const item = parsed.value;
  if (Number(item.seq) !== entry.seq || item.from !== entry.from)
    return { kind: 'skipped', reason: 'seq/from disagree with the file name' };
  return {
    kind: 'ok',
    item: { file: entry.file, seq: entry.seq, from: item.from, content: item.content, turn: item.turn, timestamp: item.timestamp },
  };
}

function isSender(from: string): boolean {
  return from === OPERATOR_SENDER || isName(from);
}
