/**
 * The JSON form of an object handler's state, as the store keeps it. Encoding is bounded (1 MiB of
 * UTF-8) and never throws (cycles, BigInt, a throwing `toJSON` → `not_serializable`); decoding is
 * bounded too and drops every `__proto__`, `constructor` and `prototype` key at any depth, so a
 * stored row can never reach an object's prototype chain once the handler spreads or merges it.
 */
export const OBJECT_STATE_MAX_BYTES = 1_048_576;

export type EncodedObjectState =
  | { readonly kind: 'ok'; readonly json: string }
  | { readonly kind: 'too_large'; readonly bytes: number }
  | { readonly kind: 'not_serializable'; readonly error: string };

export type DecodedObjectState =
  { readonly kind: 'ok'; readonly state: unknown } | { readonly kind: 'invalid'; readonly reason: 'too_large' | 'unparsable' };

const POISON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** `undefined` (a handler without state) is stored as `null`. */
export function encodeObjectState(state: unknown): EncodedObjectState {
  let json: string | undefined;
  try {
    json = JSON.stringify(state === undefined ? null : state);
  } catch (e) {
    return { kind: 'not_serializable', error: e instanceof Error ? e.name : 'error' };
  }
  if (typeof json !== 'string') return { kind: 'not_serializable', error: 'no JSON form' };
  const bytes = Buffer.byteLength(json, 'utf8');
  return bytes > OBJECT_STATE_MAX_BYTES ? { kind: 'too_large', bytes } : { kind: 'ok', json };
}

function dropPoisonKeys(this: unknown, key: string, value: unknown): unknown {
  return POISON_KEYS.has(key) ? undefined : value;
}

/** Parses a stored state; anything but bounded, valid JSON is `invalid`. */
export function parseObjectState(text: string): DecodedObjectState {
  if (Buffer.byteLength(text, 'utf8') > OBJECT_STATE_MAX_BYTES) return { kind: 'invalid', reason: 'too_large' };
  try {
    return { kind: 'ok', state: JSON.parse(text, dropPoisonKeys) as unknown };
  } catch {
    // expected: stored text that does not parse is the 'invalid' result
    return { kind: 'invalid', reason: 'unparsable' };
  }
}
