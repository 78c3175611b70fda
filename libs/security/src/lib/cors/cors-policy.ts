/** docs/security.md origin policy: local dev origins (default), any origin (`*`), or an exact list. */
export type CorsPolicy = { kind: 'local' } | { kind: 'any' } | { kind: 'list'; origins: readonly string[] };

/** The whole origin must match: scheme, a local host literal, optional port — nothing else. */
const LOCAL_ORIGIN_RE = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?$/;
/** RFC 9110 token; a requested method outside it is not echoed. */
const METHOD_TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Header names are tokens too. */
const HEADER_NAME_RE = METHOD_TOKEN_RE;

/** Parses GENSWARMS_CORS_ORIGINS: unset → local; exactly `*` (after trim) → any; else a comma list. */
export function parseCorsOrigins(raw: string | undefined): CorsPolicy {
  if (typeof raw !== 'string' || raw.trim() === '') return { kind: 'local' };
  if (raw.trim() === '*') return { kind: 'any' };
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  return { kind: 'list', origins: Object.freeze(origins) };
}

/** Exact-string origin check; a missing or empty Origin is never "allowed" (it gets no CORS headers). */
export function isOriginAllowed(policy: CorsPolicy, origin: string | undefined): boolean {
  if (typeof origin !== 'string' || origin === '') return false;
  switch (policy.kind) {
    case 'local':
      return LOCAL_ORIGIN_RE.test(origin);
    case 'any':
      return true;
    case 'list':
      return policy.origins.includes(origin);
  }
}

/** Headers for an actual request: the Origin echoed (never a literal `*`) plus `Vary: Origin`, or none. */
export function corsHeadersFor(policy: CorsPolicy, origin: string | undefined): Record<string, string> {
  if (!isOriginAllowed(policy, origin) || origin === undefined) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

function normalizeRequestedHeaders(raw: string | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const names = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (names.length === 0 || !names.every((h) => HEADER_NAME_RE.test(h))) return undefined;
  return names.join(',');
}

/**
 * Preflight answer headers (status 204 is the caller's job). Allowed origin → echo origin, `Vary`,
 * the requested method and the requested headers (lower-cased, comma-joined, no spaces), no Max-Age.
 * Disallowed origin → no headers.
 */
export function preflightHeaders(policy: CorsPolicy, req: { origin?: string; method?: string; headers?: string }): Record<string, string> {
  const base = corsHeadersFor(policy, req.origin);
  if (Object.keys(base).length === 0) return {};
  const out: Record<string, string> = { ...base };
  if (typeof req.method === 'string' && METHOD_TOKEN_RE.test(req.method)) out['Access-Control-Allow-Methods'] = req.method;
  const headers = normalizeRequestedHeaders(req.headers);
  if (headers !== undefined) out['Access-Control-Allow-Headers'] = headers;
  return out;
}
