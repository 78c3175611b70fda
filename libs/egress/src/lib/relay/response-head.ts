import type { FramerMode } from './body-framer';
import { BODY_LENGTH_MAX_BYTES } from './relay-limits';

/** What the relay reads of the body: a JSON document, an event stream, or nothing (another type, or encoded). */
export type UsageFormat = 'json' | 'sse' | 'none';

export interface ResponseHead {
  readonly status: number;
  /** How the body ends. `until_close` responses end the agent's connection too. */
  readonly framing: FramerMode;
  readonly format: UsageFormat;
  /** The upstream closes after this response (`Connection: close`, HTTP/1.0 or a close-delimited body). */
  readonly close: boolean;
}

/** Why an upstream response head is not relayed: the call fails closed. */
export type ResponseProblem = 'bad_status_line' | 'bad_header' | 'bad_framing' | 'upgrade';

const STATUS_LINE_RE = /^HTTP\/1\.([01]) ([1-9][0-9]{2})(?: [\t\x20-\x7e\x80-\xff]*)?$/;
const TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/;

function formatOf(contentType: string | undefined, contentEncoding: string | undefined): UsageFormat {
  if (contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity') return 'none';
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  return 'none';
}

/**
 * Parses the upstream's response head (latin1, without the blank line) for a request of `method`.
 * Framing follows RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304; both Content-Length and
 * Transfer-Encoding, a repeated or non-numeric length, or a coding other than `chunked` fail closed.
 */
export function parseResponseHead(head: string, method: string): ResponseHead | ResponseProblem {
  const lines = head.split('\r\n');
  if (/[\r\n]/.test(head.replace(/\r\n/g, ''))) return 'bad_header';
  const m = STATUS_LINE_RE.exec(lines[0] ?? '');
  if (m === null) return 'bad_status_line';
  const status = Number(m[2]);
  if (status === 101) return 'upgrade';
  const fields = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, Math.max(colon, 0)).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (colon <= 0 || !TOKEN_RE.test(name) || !FIELD_VALUE_RE.test(value)) return 'bad_header';
    fields.set(name, [...(fields.get(name) ?? []), value]);
  }
  const framing = framingOf(status, method, fields.get('content-length'), fields.get('transfer-encoding'));
  if (framing === null) return 'bad_framing';
  const connection = (fields.get('connection') ?? [])
    .join(',')
    .toLowerCase()
    .split(',')
    .map((t) => t.trim());
  const close = m[1] === '0' || connection.includes('close') || framing.kind === 'until_close';
  const format = formatOf(fields.get('content-type')?.[0], fields.get('content-encoding')?.[0]);
  return { status, framing, format, close };
}

function framingOf(status: number, method: string, lengths: string[] | undefined, codings: string[] | undefined): FramerMode | null {
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304) return { kind: 'none' };
  if (lengths !== undefined && codings !== undefined) return null;
  if (codings !== undefined) return codings.length === 1 && codings[0]?.toLowerCase() === 'chunked' ? { kind: 'chunked' } : null;
  if (lengths === undefined) return { kind: 'until_close' };
  const raw = lengths[0] ?? '';
  if (lengths.length !== 1 || !/^[0-9]{1,10}$/.test(raw) || Number(raw) > BODY_LENGTH_MAX_BYTES) return null;
  return Number(raw) === 0 ? { kind: 'none' } : { kind: 'length', bytes: Number(raw) };
}
