import { BODY_LENGTH_MAX_BYTES, REQUEST_HEADERS_MAX, REQUEST_TARGET_MAX_BYTES } from './relay-limits';

/** How a message body is delimited (RFC 9112 §6). */
export type BodyFraming = { readonly kind: 'none' } | { readonly kind: 'length'; readonly bytes: number } | { readonly kind: 'chunked' };

/** Methods an LLM API uses. CONNECT (a tunnel) and anything exotic never reach the upstream. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** RFC 9110 token. */
const TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Field value: visible ASCII, obs-text, space and tab only (no CR, LF, NUL or other controls). */
const FIELD_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Origin-form target: `/` then visible ASCII. */
const TARGET_RE = /^\/[\x21-\x7e]*$/;
const DIGITS_RE = /^[0-9]{1,10}$/;

export interface RequestHead {
  readonly method: string;
  /** Path and query as sent (forwarded upstream, never stored). */
  readonly target: string;
  /** The path alone (no query: a query may carry a key), for the audit trail. */
  readonly path: string;
  /** Header lines in order, names as sent. */
  readonly headers: ReadonlyArray<readonly [name: string, value: string]>;
  readonly framing: BodyFraming;
  /** The agent asked to close after this exchange (`Connection: close`). */
  readonly close: boolean;
}

/** Why a request head is refused; the relay answers 400 (431 for `head_too_large`) and closes. */
export type HeadProblem =
  | 'head_too_large'
  | 'bad_request_line'
  | 'not_http_1_1'
  | 'method_not_allowed'
  | 'bad_target'
  | 'bad_header'
  | 'too_many_headers'
  | 'missing_host'
  | 'duplicate_host'
  | 'bad_content_length'
  | 'content_length_and_transfer_encoding'
  | 'bad_transfer_encoding'
  | 'upgrade_refused';

export type HeadParse =
  | { readonly kind: 'ok'; readonly head: RequestHead }
  | { readonly kind: 'refused'; readonly problem: HeadProblem; readonly method?: string; readonly path?: string };

interface Line {
  readonly name: string;
  readonly lower: string;
  readonly value: string;
}

/** Splits the header lines; every line must end CRLF (a bare LF or CR is a smuggling shape), no obs-fold. */
function headerLines(lines: readonly string[]): Line[] | HeadProblem {
  if (lines.length > REQUEST_HEADERS_MAX) return 'too_many_headers';
  const out: Line[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return 'bad_header';
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!TOKEN_RE.test(name) || !FIELD_VALUE_RE.test(value)) return 'bad_header';
    out.push({ name, lower: name.toLowerCase(), value });
  }
  return out;
}

function framingOf(lines: readonly Line[]): BodyFraming | HeadProblem {
  const lengths = lines.filter((l) => l.lower === 'content-length');
  const encodings = lines.filter((l) => l.lower === 'transfer-encoding');
  if (lengths.length > 0 && encodings.length > 0) return 'content_length_and_transfer_encoding';
  if (encodings.length > 0) {
    // exactly one `Transfer-Encoding: chunked`: a list (`gzip, chunked`) or a repeat is refused, not interpreted
    if (encodings.length !== 1 || encodings[0]?.value.toLowerCase() !== 'chunked') return 'bad_transfer_encoding';
    return { kind: 'chunked' };
  }
  if (lengths.length === 0) return { kind: 'none' };
  const raw = lengths[0]?.value ?? '';
  if (lengths.length !== 1 || !DIGITS_RE.test(raw)) return 'bad_content_length';
  const bytes = Number(raw);
  if (bytes > BODY_LENGTH_MAX_BYTES) return 'bad_content_length';
  return bytes === 0 ? { kind: 'none' } : { kind: 'length', bytes };
}

function hasToken(lines: readonly Line[], name: string, token: string): boolean {
  return lines.some(
    (l) =>
      l.lower === name &&
      l.value
        .toLowerCase()
        .split(',')
        .some((t) => t.trim() === token),
  );
}

/**
 * Parses one request head (`head` = the bytes before the blank line, latin1). Strict by design: HTTP/1.1
 * only, origin-form targets, a single Host, exactly one framing (RFC 9112 §6.3 smuggling shapes refused),
 * no upgrade. Pure.
 */
export function parseRequestHead(head: string): HeadParse {
  const lines = head.split('\r\n');
  const requestLine = lines[0] ?? '';
  if (/[\r\n]/.test(head.replace(/\r\n/g, ''))) return { kind: 'refused', problem: 'bad_header' };
  const parts = requestLine.split(' ');
  if (parts.length !== 3) return { kind: 'refused', problem: 'bad_request_line' };
  const [method = '', target = '', version = ''] = parts;
  if (version !== 'HTTP/1.1') return { kind: 'refused', problem: 'not_http_1_1' };
  if (!TOKEN_RE.test(method) || !METHODS.has(method)) return { kind: 'refused', problem: 'method_not_allowed' };
  if (target.length > REQUEST_TARGET_MAX_BYTES || !TARGET_RE.test(target)) return { kind: 'refused', problem: 'bad_target', method };
  const path = auditPath(target);
  const parsed = headerLines(lines.slice(1));
  if (typeof parsed === 'string') return { kind: 'refused', problem: parsed, method, path };
  const hosts = parsed.filter((l) => l.lower === 'host').length;
  if (hosts === 0) return { kind: 'refused', problem: 'missing_host', method, path };
  if (hosts > 1) return { kind: 'refused', problem: 'duplicate_host', method, path };
  if (parsed.some((l) => l.lower === 'upgrade') || hasToken(parsed, 'connection', 'upgrade'))
    return { kind: 'refused', problem: 'upgrade_refused', method, path };
  const framing = framingOf(parsed);
  if (typeof framing === 'string') return { kind: 'refused', problem: framing, method, path };
  const headers = parsed.map((l) => [l.name, l.value] as const);
  return { kind: 'ok', head: { method, target, path, headers, framing, close: hasToken(parsed, 'connection', 'close') } };
}

/** Longest path the audit trail keeps. */
export const AUDIT_PATH_MAX_CHARS = 256;

/** The target's path without its query (a query may carry a key), cut to AUDIT_PATH_MAX_CHARS. */
export function auditPath(target: string): string {
  const q = target.search(/[?#]/);
  return (q === -1 ? target : target.slice(0, q)).slice(0, AUDIT_PATH_MAX_CHARS);
}

/**
 * The head sent upstream, rebuilt from what was parsed (what the relay checked is exactly what the upstream
 * reads): `Host` is the pinned upstream's, `Accept-Encoding: identity` so the usage can be read.
 */
export function serializeRequestHead(head: RequestHead, upstreamHost: string): Buffer {
  let out = `${head.method} ${head.target} HTTP/1.1\r\nHost: ${upstreamHost}\r\n`;
  for (const [name, value] of head.headers) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'accept-encoding') continue;
    out += `${name}: ${value}\r\n`;
  }
  return Buffer.from(`${out}Accept-Encoding: identity\r\n\r\n`, 'latin1');
}
