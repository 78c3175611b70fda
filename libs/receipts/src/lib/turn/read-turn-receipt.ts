import type { ReceiptBounds } from '../bounds/bounds';
import { resolveBounds } from '../bounds/bounds';
import type { FileStamp } from '../fs/bounded-reader';
import { readBoundedFile } from '../fs/bounded-reader';
import type { DirIdentity } from '../fs/dir-chain';
import { snapshotDirChain } from '../fs/dir-chain';
import type { ReceiptReason } from '../fs/reasons';
import { decodeReply, parseDoneJson } from './done-json';
import type { DoneRecord } from './done-json';
import { DONE_FILE, REPLY_FILE, turnDirChain } from './turn-paths';

export type TurnReceipt =
  | { kind: 'pending' }
  | { kind: 'ok'; status: 'ok' | 'error'; error?: string; reply: string | null }
  | { kind: 'refused'; reason: ReceiptReason; file?: 'done.json' | 'reply.md' | 'directory' };

/**
 * One attempt's outcome. `unsettled` marks a malformed verdict that may still be a file being written
 * (done.json not UTF-8/JSON yet, or status ok with reply.md still absent): the watcher only accepts it
 * once two reads 500 ms apart see the same `key`.
 */
export interface TurnAttempt {
  readonly receipt: TurnReceipt;
  readonly unsettled?: { readonly key: string };
  /** The turn directory (or one above it) does not exist (the receipt is `pending`). */
  readonly dirMissing?: true;
}

/** One read attempt (docs/receipts.md steps 1-7 plus validation), without the 500 ms malformed re-check. */
export async function readTurnReceipt(workspaceReal: string, turnId: string, bounds?: Partial<ReceiptBounds>): Promise<TurnReceipt> {
  return (await attemptTurnReceipt(workspaceReal, turnId, bounds)).receipt;
}

export async function attemptTurnReceipt(
  workspaceReal: string,
  turnId: string,
  partialBounds?: Partial<ReceiptBounds>,
): Promise<TurnAttempt> {
  const paths = turnDirChain(workspaceReal, turnId);
  const bounds = resolveBounds(partialBounds);
  const dirs = snapshotDirChain(paths);
  if (dirs.kind === 'missing') return { receipt: { kind: 'pending' }, dirMissing: true };
  if (dirs.kind === 'refused') return { receipt: { kind: 'refused', reason: dirs.reason, file: 'directory' } };
  const done = readBoundedFile(dirs.chain, DONE_FILE, bounds.doneMaxBytes);
  if (done.kind === 'missing') return { receipt: { kind: 'pending' } };
  if (done.kind === 'refused') return { receipt: { kind: 'refused', reason: done.reason, file: DONE_FILE } };
  const parsed = parseDoneJson(done.data, turnId);
  if (parsed.kind === 'unparsable') return malformedUnsettled(done.stamp, 'unparsable');
  if (parsed.kind === 'invalid') return { receipt: { kind: 'refused', reason: parsed.reason, file: DONE_FILE } };
  return readReply(dirs.chain, parsed.done, done.stamp, bounds.replyMaxBytes);
}

function readReply(chain: readonly DirIdentity[], done: DoneRecord, doneStamp: FileStamp, replyMaxBytes: number): TurnAttempt {
  const reply = readBoundedFile(chain, REPLY_FILE, replyMaxBytes);
  if (reply.kind === 'refused') return { receipt: { kind: 'refused', reason: reply.reason, file: REPLY_FILE } };
  if (reply.kind === 'missing') {
    if (done.status === 'ok') return malformedUnsettled(doneStamp, 'reply-missing');
    return { receipt: withError({ kind: 'ok', status: 'error', reply: null }, done) };
  }
  return { receipt: withError({ kind: 'ok', status: done.status, reply: decodeReply(reply.data) }, done) };
}

function withError(receipt: { kind: 'ok'; status: 'ok' | 'error'; reply: string | null }, done: DoneRecord): TurnReceipt {
  return done.error === undefined ? receipt : { ...receipt, error: done.error };
}

function malformedUnsettled(stamp: FileStamp, why: string): TurnAttempt {
  const file = why === 'reply-missing' ? REPLY_FILE : DONE_FILE;
  return {
    receipt: { kind: 'refused', reason: 'receipt_malformed', file },
    unsettled: { key: `${why}:${stamp.ino}:${stamp.size}:${stamp.mtimeNs}` },
  };
}
