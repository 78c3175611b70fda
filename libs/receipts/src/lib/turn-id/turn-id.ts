import { randomBytes } from 'node:crypto';
import { ReceiptError } from '../errors/receipt-error';

/** Grammar of a turn id; checked before an id is ever joined into a path. */
export const TURN_ID_RE = /^[a-z0-9_-]{1,64}$/;

/** RFC 4648 base32 alphabet, lower-cased so ids match TURN_ID_RE. */
const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 128 random bits, base32 lower-case (26 chars). Host-generated: agents never choose turn ids. */
export function newTurnId(): string {
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** True only for a string matching TURN_ID_RE (JS `$` without `m` never matches before a trailing newline). */
export function isTurnId(value: unknown): value is string {
  return typeof value === 'string' && TURN_ID_RE.test(value);
}

/** Throws ReceiptError `invalid_turn_id`; the bad value is never echoed (it may be hostile). */
export function assertTurnId(value: unknown): asserts value is string {
  if (!isTurnId(value)) throw new ReceiptError('invalid_turn_id', 'turn id must match ^[a-z0-9_-]{1,64}$');
}
