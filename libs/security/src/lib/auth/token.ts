import { hash, timingSafeEqual } from 'node:crypto';

/** Unset (undefined, '' or whitespace-only) → undefined; any other value is kept verbatim (never trimmed). */
export function normalizeToken(raw: string | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return raw;
}

/** sha256 of the UTF-8 bytes; the one-shot `crypto.hash` (no Hash object per request: every request digests its token). */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** A configured token's sha256, computed once: the expected side of `matchesDigest`. */
export function tokenDigest(expected: string | undefined): Buffer | undefined {
  const want = normalizeToken(expected);
  return want === undefined ? undefined : digest(want);
}

/** A presented token's sha256 (undefined for an empty or non-string value, which never matches). */
export function presentedDigest(presented: unknown): Buffer | undefined {
  return typeof presented === 'string' && presented !== '' ? digest(presented) : undefined;
}

/** Constant-time compare of two token digests; a missing side never matches. */
export function digestsMatch(got: Buffer | undefined, want: Buffer | undefined): boolean {
  return got !== undefined && want !== undefined && timingSafeEqual(got, want);
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
