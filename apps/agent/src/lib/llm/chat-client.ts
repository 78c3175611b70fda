import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { arrayOf, nullable, object, optional, string, validate } from '../validate/strict';

/** Whole-request deadline for one completion (ms). Models can be slow; a hung server must not hang the agent. */
export const LLM_REQUEST_TIMEOUT_MS = 300_000;
/** Largest response body read (bytes); more → error, the rest is discarded. */
export const LLM_RESPONSE_MAX_BYTES = 8 * 1024 * 1024;

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface ChatRequest {
  readonly url: URL;
  readonly messages: readonly ChatMessage[];
  readonly model?: string;
  /** Sent as `Authorization: Bearer <key>` only when set. */
  readonly apiKey?: string;
  /** Sent as the `Host` header (isolated agents talk to a local forwarder pinned to this host). */
  readonly upstreamHost?: string;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

/**
 * `error` is safe to log and to put in done.json: no key, no response body beyond a short excerpt.
 * `http` is set for an HTTP error status (the retry loop decides on it).
 */
export type ChatResult =
  | { kind: 'ok'; content: string }
  | { kind: 'error'; error: string; http?: { status: number; retryAfter: string | undefined } }
  | { kind: 'aborted' };

/** Responses are third-party JSON: only the fields used are checked, extra keys are expected. */
const CompletionSchema = object(
  { choices: arrayOf(object({ message: object({ content: optional(nullable(string())) }, 'loose') }, 'loose'), { min: 1 }) },
  'loose',
);

/** POSTs `{model?, messages}` with node:http(s) (so `Host` can be set) and returns the first choice's text. */
export async function requestChatCompletion(req: ChatRequest): Promise<ChatResult> {
  const body = JSON.stringify(req.model === undefined ? { messages: req.messages } : { model: req.model, messages: req.messages });
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  if (req.apiKey !== undefined) headers['authorization'] = `Bearer ${req.apiKey}`;
  if (req.upstreamHost !== undefined) headers['host'] = req.upstreamHost;
  const raw = await send(req, headers, body);
  if (raw.kind !== 'ok') return raw;
  if (raw.status < 200 || raw.status > 299) {
    const error = `llm request failed: HTTP ${raw.status}${excerpt(raw.body, req.apiKey)}`;
    return { kind: 'error', error, http: { status: raw.status, retryAfter: raw.retryAfter } };
  }
  return parseCompletion(raw.body);
}

type RawResult =
  { kind: 'ok'; status: number; retryAfter: string | undefined; body: string } | { kind: 'error'; error: string } | { kind: 'aborted' };

function send(req: ChatRequest, headers: OutgoingHttpHeaders, body: string): Promise<RawResult> {
  const maxBytes = req.maxBytes ?? LLM_RESPONSE_MAX_BYTES;
  const requestFn = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const settle = once(resolve);
    const timer = setTimeout(() => {
      settle({ kind: 'error', error: 'llm request timed out' });
      outgoing.destroy();
    }, req.timeoutMs ?? LLM_REQUEST_TIMEOUT_MS);
    const onAbort = (): void => {
      settle({ kind: 'aborted' });
      outgoing.destroy();
    };
    const outgoing = requestFn(req.url, { method: 'POST', headers }, (res) => {
      readBounded(res, maxBytes).then(
        (text) =>
          settle(
            text === null
              ? { kind: 'error', error: `llm response larger than ${maxBytes} bytes` }
              : { kind: 'ok', status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: text },
          ),
        // expected: a broken response stream is the 'interrupted' error result
        () => settle({ kind: 'error', error: 'llm response interrupted' }),
      );
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      settle({ kind: 'error', error: `llm request failed: ${error.code ?? 'network error'}` }),
    );
    outgoing.on('close', () => {
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
    });
    if (req.signal.aborted) return onAbort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.end(body);
  });
}

/** Resolves the body text, or null once it exceeds maxBytes (the connection is then destroyed). */
function readBounded(res: IncomingMessage, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        resolve(null);
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('aborted')));
  });
}

function parseCompletion(text: string): ChatResult {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // expected: a non-JSON body is the 'not JSON' error result
    return { kind: 'error', error: 'llm response is not JSON' };
  }
  const parsed = validate(CompletionSchema, json);
  if (parsed.kind === 'invalid') return { kind: 'error', error: 'llm response has no choices[0].message' };
  return { kind: 'ok', content: parsed.value.choices[0]?.message.content ?? '' };
}

/** A short, single-line excerpt of an error body for the receipt (servers put the reason there). */
function excerpt(body: string, apiKey: string | undefined): string {
  const scrubbed = apiKey === undefined ? body : body.split(apiKey).join('[REDACTED]'); // a server may echo the key
  const flat = scrubbed.replace(/\s+/g, ' ').trim().slice(0, 200);
  return flat === '' ? '' : `: ${flat}`;
}

function once<T>(fn: (value: T) => void): (value: T) => void {
  let done = false;
  return (value) => {
    if (done) return;
    done = true;
    fn(value);
  };
}
