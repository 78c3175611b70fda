import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** One request as the mock saw it. Header names lower-cased; credential values redacted (REDACTED_HEADERS). */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  readonly body: unknown;
  readonly receivedAt: string;
}

/** Headers that carry credentials: recorded as a fingerprint, never verbatim (records end up in logs and test diffs). */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
]);

/**
 * What the mock records for a credential header value: `[redacted sha256:<first 16 hex>]`. A spec asserts
 * the exact key was sent with `redactedHeaderValue(\`Bearer ${key}\`)`.
 */
export function redactedHeaderValue(value: string): string {
  return `[redacted sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16)}]`;
}

/** The request's headers in a null-prototype map, credential values replaced by their fingerprint. */
export function recordHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const headers = Object.create(null) as Record<string, string | string[] | undefined>;
  for (const [name, value] of Object.entries(req.headers)) {
    if (!REDACTED_HEADERS.has(name) || value === undefined) headers[name] = value;
    else headers[name] = Array.isArray(value) ? value.map(redactedHeaderValue) : redactedHeaderValue(value);
  }
  return headers;
}
