import { ReceiptError } from '../errors/receipt-error';

/** Byte bound of done.json (docs/receipts.md). */
export const DONE_MAX_BYTES = 65536;
/** Byte bound of reply.md (docs/receipts.md). */
export const REPLY_MAX_BYTES = 1048576;
/** Upper limit accepted for any configured bound: a reader must stay bounded even when misconfigured. */
export const BOUND_LIMIT_BYTES = 64 * 1048576;

export interface ReceiptBounds {
  readonly doneMaxBytes: number;
  readonly replyMaxBytes: number;
}

export const DEFAULT_BOUNDS: ReceiptBounds = Object.freeze({ doneMaxBytes: DONE_MAX_BYTES, replyMaxBytes: REPLY_MAX_BYTES });

/** Validates a byte bound: an integer in [0, BOUND_LIMIT_BYTES], else ReceiptError `invalid_option`. */
export function assertByteBound(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > BOUND_LIMIT_BYTES) {
    throw new ReceiptError('invalid_option', `${what} must be an integer between 0 and ${BOUND_LIMIT_BYTES}`);
  }
}

export function resolveBounds(partial: Partial<ReceiptBounds> | undefined): ReceiptBounds {
  const bounds = {
    doneMaxBytes: partial?.doneMaxBytes ?? DONE_MAX_BYTES,
    replyMaxBytes: partial?.replyMaxBytes ?? REPLY_MAX_BYTES,
  };
  assertByteBound(bounds.doneMaxBytes, 'doneMaxBytes');
  assertByteBound(bounds.replyMaxBytes, 'replyMaxBytes');
  return bounds;
}
