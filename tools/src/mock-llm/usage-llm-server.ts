import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { usageJson, usageSse, type MockUsage, type UsageProtocol } from './usage-shapes';

/** Largest request body the usage mock reads (bytes); larger → 413. */
export const USAGE_LLM_BODY_MAX_BYTES = 1024 * 1024;

/** What the usage mock saw of a request: no headers (a test of the egress needs none), the body's `stream` flag. */
export interface UsageLlmRequest {
  readonly method: string;
  readonly path: string;
  readonly protocol: UsageProtocol | null;
  readonly stream: boolean;
}

export interface UsageLlmOptions {
  readonly port?: number;
  readonly host?: string;
  /** Tokens every answer reports (default 10 prompt, 5 completion). */
  readonly usage?: MockUsage;
}

export interface UsageLlm {
  readonly url: string;
  readonly port: number;
  /** Live: every request in arrival order. */
  readonly requests: UsageLlmRequest[];
  close(): Promise<void>;
}

const ROUTES: Readonly<Record<string, UsageProtocol>> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
  '/v1/messages': 'messages',
};

/**
 * An LLM mock that answers in OpenAI chat, OpenAI responses and Anthropic messages shapes, JSON or streamed
 * (`"stream": true` in the body), each reporting `usage`: the counterpart of the metering egress specs.
 */
export async function startUsageLlm(options: UsageLlmOptions = {}): Promise<UsageLlm> {
  const requests: UsageLlmRequest[] = [];
  const usage = options.usage ?? { prompt: 10, completion: 5 };
  const server = createServer((req, res) => {
    // expected: any failure of the mock is its 500 answer
    answer(req, res, usage, requests).catch(() => send(res, 500, 'application/json', '{"error":{"message":"mock failure"}}'));
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host);
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, requests, close: () => close(server) };
}

async function answer(req: IncomingMessage, res: ServerResponse, usage: MockUsage, requests: UsageLlmRequest[]): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const body = await readBody(req);
  const protocol = Object.prototype.hasOwnProperty.call(ROUTES, path) ? (ROUTES[path] ?? null) : null;
  const stream = isRecord(body) && body['stream'] === true;
  requests.push({ method: req.method ?? '', path, protocol, stream });
  if (body === undefined) return send(res, 413, 'application/json', '{"error":{"message":"request body too large"}}');
  if (req.method !== 'POST' || protocol === null) return send(res, 404, 'application/json', '{"error":{"message":"not found"}}');
  const text = `answer ${requests.length} from the usage mock`;
  if (stream) return send(res, 200, 'text/event-stream', usageSse(protocol, text, usage));
  send(res, 200, 'application/json', JSON.stringify(usageJson(protocol, text, usage)));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The parsed JSON body (null when empty or not JSON), or undefined when it is larger than the bound. */
function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= USAGE_LLM_BODY_MAX_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > USAGE_LLM_BODY_MAX_BYTES) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        resolve(null); // expected: not JSON, answered as a request without options
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
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

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
