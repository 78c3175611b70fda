import { createHash, timingSafeEqual } from 'node:crypto';

/** Unset (undefined, '' or whitespace-only) → undefined; any other value is kept verbatim (never trimmed). */
export function normalizeToken(raw: string | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return raw;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Constant-time token compare: sha256 of both sides through `timingSafeEqual`, so neither an early
 * exit nor the length leaks. An empty or non-string presented value, or an unset expected one, never matches.
 */
export function tokensMatch(presented: unknown, expected: string | undefined): boolean {
  if (typeof presented !== 'string' || presented === '') return false;
  const want = normalizeToken(expected);
  if (want === undefined) return false;
  return timingSafeEqual(digest(presented), digest(want));
}
