import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastUserMessage, requestedModel } from './chat-request';
import { chooseReply } from './mock-script';
import type { MockScriptEntry } from './mock-script';

/** Largest request body the mock accepts (bytes); larger → 413. */
export const MOCK_LLM_BODY_MAX_BYTES = 4 * 1024 * 1024;
/** Model id reported by `/v1/models` and used when a request names none. */
export const MOCK_LLM_MODEL = 'mock-model';
/** Control route returning the recorded requests as JSON (itself not recorded). */
export const MOCK_LLM_REQUESTS_PATH = '/__mock/requests';

/** One request as the mock saw it. Headers are lower-cased names, values verbatim (Authorization included). */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  readonly body: unknown;
  readonly receivedAt: string;
}

export interface MockLlmOptions {
  readonly port?: number;
  readonly host?: string;
  readonly script?: readonly MockScriptEntry[];
  /** Wait this long before answering a chat completion (lets tests catch a turn in flight). */
  readonly delayMs?: number;
}

export interface MockLlm {
  readonly url: string;
  readonly port: number;
  /** Live array: every request except the control route, in arrival order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts an OpenAI-compatible mock (`POST /v1/chat/completions`, `GET /v1/models`) on node:http. */
export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const requests: RecordedRequest[] = [];
  const state = { script: options.script ?? [], delayMs: options.delayMs ?? 0, requests, counter: 0, uses: [] as number[] };
  const server = createServer((req, res) => {
    // expected: any failure of the mock is its 500 answer
    handle(state, req, res).catch(() => sendJson(res, 500, { error: { message: 'mock failure' } }));
  });
  const port = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const host = options.host ?? '127.0.0.1';
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${hostInUrl}:${port}`, port, requests, close: () => closeServer(server) };
}

interface MockState {
  readonly script: readonly MockScriptEntry[];
  readonly delayMs: number;
  readonly requests: RecordedRequest[];
  counter: number;
  /** Replies given per script entry (for `times`). */
  readonly uses: number[];
}

async function handle(state: MockState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = req.url ?? '/';
  const route = path.split('?')[0];
  if (req.method === 'GET' && route === MOCK_LLM_REQUESTS_PATH) return sendJson(res, 200, state.requests);
  const raw = await readBody(req);
  const body = raw === null ? undefined : parseBody(raw);
  state.requests.push({
    method: req.method ?? '',
    path,
    headers: copyHeaders(req),
    body: body ?? null,
    receivedAt: new Date().toISOString(),
  });
  if (raw === null) return sendJson(res, 413, { error: { message: 'request body too large' } });
  if (req.method === 'GET' && route === '/v1/models') {
    return sendJson(res, 200, { object: 'list', data: [{ id: MOCK_LLM_MODEL, object: 'model', owned_by: 'genswarms' }] });
  }
  if (req.method === 'POST' && route === '/v1/chat/completions') return answerChat(state, body, res);
  return sendJson(res, 404, { error: { message: 'not found' } });
}

async function answerChat(state: MockState, body: unknown, res: ServerResponse): Promise<void> {
  if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
  const reply = chooseReply(state.script, lastUserMessage(body), state.uses);
  const extra: Record<string, string> = reply.retryAfter === undefined ? {} : { 'retry-after': reply.retryAfter };
  if (reply.kind === 'http_error') return sendJson(res, reply.status, { error: { message: reply.content, type: 'mock_error' } }, extra);
  state.counter += 1;
  sendJson(
    res,
    200,
    {
      id: `chatcmpl-mock-${state.counter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: requestedModel(body, MOCK_LLM_MODEL),
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    },
    extra,
  );
}

/** Reads the body up to the bound; null when it is larger (the rest is drained, not buffered). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MOCK_LLM_BODY_MAX_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MOCK_LLM_BODY_MAX_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw; // expected: not JSON, recorded verbatim so tests can see what was sent
  }
}

function copyHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const headers: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, string | string[] | undefined>;
  for (const [name, value] of Object.entries(req.headers)) headers[name] = value;
  return headers;
}

function sendJson(res: ServerResponse, status: number, payload: unknown, extra: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { ...extra, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
