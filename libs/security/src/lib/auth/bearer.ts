const BEARER_PREFIX = 'Bearer ';

/**
 * docs/security.md: the first Authorization value must start with exactly `Bearer ` (capital B, one
 * space); the token is the rest, verbatim. Anything else → no token. `Bearer ` → `''` (never matches).
 */
export function parseBearer(header: string | readonly string[] | undefined): string | undefined {
  const first = typeof header === 'string' ? header : header?.[0];
  if (typeof first !== 'string' || !first.startsWith(BEARER_PREFIX)) return undefined;
  return first.slice(BEARER_PREFIX.length);
}
