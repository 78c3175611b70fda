import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decideAgentAnswer } from './agent-turn';
import type { AgentAnswer } from './agent-turn';
import { chooseReply } from './mock-script';
import type { MockScriptEntry } from './mock-script';
import { recordHeaders } from './recorded-request';
import type { RecordedRequest } from './recorded-request';
import { sendSse } from './sse';
import { requestedModel, wantsStream } from './wire';
import { WIRE_PROTOCOLS } from './wire-protocols';
import type { WireProtocol } from './wire-protocols';

/** Largest request body the mock accepts (bytes); larger → 413. */
export const MOCK_LLM_BODY_MAX_BYTES = 4 * 1024 * 1024;
/** Model id reported by `/v1/models` and used when a request names none. */
export const MOCK_LLM_MODEL = 'mock-model';
/** Control route returning the recorded requests as JSON (itself not recorded). */
export const MOCK_LLM_REQUESTS_PATH = '/__mock/requests';
/** Control route returning `{"count": <recorded requests>}` (itself not recorded). */
export const MOCK_LLM_COUNT_PATH = '/__mock/count';

export interface MockLlmOptions {
  readonly port?: number;
  readonly host?: string;
  readonly script?: readonly MockScriptEntry[];
  /** Wait this long before answering a model request (lets tests catch a turn in flight). */
  readonly delayMs?: number;
}

export interface MockLlm {
  readonly url: string;
  readonly port: number;
  /** Live array: every request except the control routes, in arrival order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the mock LLM on node:http: OpenAI Chat Completions and Responses, Anthropic Messages (each
 * streamed when asked), model lists and the probes Claude Code makes. A prompt naming a genswarms turn
 * gets a shell tool call that writes the receipt (agent-turn.ts).
 */
export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const requests: RecordedRequest[] = [];
  const state: MockState = { script: options.script ?? [], delayMs: options.delayMs ?? 0, requests, counter: 0, uses: [] };
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
  const route = path.split('?')[0] ?? '/';
  if (req.method === 'GET' && route === MOCK_LLM_REQUESTS_PATH) return sendJson(res, 200, state.requests);
  if (req.method === 'GET' && route === MOCK_LLM_COUNT_PATH) return sendJson(res, 200, { count: state.requests.length });
  const raw = await readBody(req);
  const body = raw === null ? undefined : parseBody(raw);
  state.requests.push({
    method: req.method ?? '',
    path,
    headers: recordHeaders(req),
    body: body ?? null,
    receivedAt: new Date().toISOString(),
  });
  if (raw === null) return sendJson(res, 413, { error: { message: 'request body too large' } });
  const protocol = req.method === 'POST' ? WIRE_PROTOCOLS.get(route) : undefined;
  if (protocol !== undefined) return answer(state, protocol, body, res);
  return answerSideRoute(req.method ?? '', route, res);
}

/** The routes besides the model calls: model lists, Claude Code's reachability probe and token count. */
function answerSideRoute(method: string, route: string, res: ServerResponse): void {
  if (method === 'GET' && route === '/v1/models') {
    const model = {
      id: MOCK_LLM_MODEL,
      object: 'model',
      type: 'model',
      owned_by: 'genswarms',
      display_name: MOCK_LLM_MODEL,
      created_at: '2025-01-01T00:00:00Z',
    };
    return sendJson(res, 200, { object: 'list', data: [model], has_more: false, first_id: MOCK_LLM_MODEL, last_id: MOCK_LLM_MODEL });
  }
  if ((method === 'HEAD' || method === 'GET') && route === '/api/hello') return sendJson(res, 200, { message: 'hello' });
  if (method === 'POST' && route === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 1 });
  return sendJson(res, 404, { error: { message: 'not found' } });
}

async function answer(state: MockState, protocol: WireProtocol, body: unknown, res: ServerResponse): Promise<void> {
  if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
  const decided = decideAgentAnswer(protocol.read(body), (prompt) => scripted(state, prompt));
  const extra: Record<string, string> =
    decided.kind === 'http_error' && decided.retryAfter !== undefined ? { 'retry-after': decided.retryAfter } : {};
  if (decided.kind === 'http_error') return sendJson(res, decided.status, protocol.error(decided.status, decided.text), extra);
  state.counter += 1;
  const id = `mock-${state.counter}`;
  const model = requestedModel(body, MOCK_LLM_MODEL);
  if (wantsStream(body)) return sendSse(res, protocol.events(decided, id, model));
  return sendJson(res, 200, protocol.object(decided, id, model));
}

function scripted(state: MockState, prompt: string): AgentAnswer {
  const reply = chooseReply(state.script, prompt, state.uses);
  if (reply.kind === 'text') return { kind: 'text', text: reply.content };
  return {
    kind: 'http_error',
    status: reply.status,
    text: reply.content,
    ...(reply.retryAfter === undefined ? {} : { retryAfter: reply.retryAfter }),
  };
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
