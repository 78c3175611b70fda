import type { ReceiptReason } from '../fs/reasons';

/** Longest accepted `error` string, in UTF-16 code units (docs/receipts.md). */
export const DONE_ERROR_MAX_CHARS = 4096;

const DONE_KEYS: ReadonlySet<string> = new Set(['v', 'turn', 'status', 'error']);

export interface DoneRecord {
  readonly status: 'ok' | 'error';
  readonly error?: string;
}

/**
 * `unparsable` (not UTF-8 or not JSON) is kept apart from `invalid` (parsed, wrong shape): only the
 * former can be a file still being written, so only it waits for the 500 ms stability check.
 */
export type DoneParse =
  | { kind: 'ok'; done: DoneRecord }
  | { kind: 'unparsable' }
  | { kind: 'invalid'; reason: Extract<ReceiptReason, 'receipt_malformed' | 'receipt_turn_mismatch'> };

/** Strict UTF-8, JSON.parse, then the closed shape {v:1, turn, status, error?}. Never throws. */
export function parseDoneJson(data: Buffer, expectedTurn: string): DoneParse {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    // expected: invalid UTF-8 or JSON is the 'unparsable' result
    return { kind: 'unparsable' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return malformed();
  // JSON.parse makes `__proto__` an own key, so it shows up here and is rejected as unknown.
  const record = value as Record<string, unknown>;
  if (!Object.keys(record).every((key) => DONE_KEYS.has(key))) return malformed();
  const { v, turn, status, error } = record;
  if (v !== 1 || typeof turn !== 'string') return malformed();
  if (status !== 'ok' && status !== 'error') return malformed();
  if (error !== undefined && (status !== 'error' || typeof error !== 'string' || error.length > DONE_ERROR_MAX_CHARS)) return malformed();
  if (turn !== expectedTurn) return { kind: 'invalid', reason: 'receipt_turn_mismatch' };
  return { kind: 'ok', done: error === undefined ? { status } : { status, error } };
}

function malformed(): DoneParse {
  return { kind: 'invalid', reason: 'receipt_malformed' };
}

/** reply.md bytes as text: UTF-8 with U+FFFD for invalid sequences (never throws). */
export function decodeReply(data: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(data);
}
