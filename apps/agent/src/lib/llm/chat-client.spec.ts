import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestChatCompletion } from './chat-client';
import type { ChatResult } from './chat-client';

/** A real misbehaving server on port 0 for each case. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: URL }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`) };
}

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

describe('requestChatCompletion against misbehaving servers', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function ask(
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    extra: { maxBytes?: number; timeoutMs?: number; apiKey?: string; signal?: AbortSignal } = {},
  ): Promise<ChatResult> {
    const started = await serve(handler);
    server = started.server;
    return requestChatCompletion({ url: started.url, messages: MESSAGES, signal: extra.signal ?? new AbortController().signal, ...extra });
  }

  test.each([
    ['a body that is not JSON', (_q: IncomingMessage, s: ServerResponse) => s.end('<html>'), 'llm response is not JSON'],
    ['JSON without choices', (_q: IncomingMessage, s: ServerResponse) => s.end('{"choices":[]}'), 'llm response has no choices[0].message'],
    ['an oversized body', (_q: IncomingMessage, s: ServerResponse) => s.end('x'.repeat(2048)), 'llm response larger than 1024 bytes'],
    [
      'a connection closed mid-response',
      (_q: IncomingMessage, s: ServerResponse) => {
        s.writeHead(200, { 'content-length': '100' });
        s.write('{"choi');
        setImmediate(() => s.destroy());
      },
      'llm response interrupted',
    ],
  ])('reports %s as an error', async (_name, handler, error) => {
    expect(await ask(handler, { maxBytes: 1024 })).toEqual({ kind: 'error', error });
  });

  it('reports a server that never answers as timed out', async () => {
    expect(await ask(() => undefined, { timeoutMs: 50 })).toEqual({ kind: 'error', error: 'llm request timed out' });
  });

  it('scrubs the key from an echoed error body', async () => {
    const result = await ask(
      (req, res) => {
        res.writeHead(401);
        res.end(`bad key ${String(req.headers['authorization'])}`);
      },
      { apiKey: 'sk-live-1' },
    );
    expect(result).toEqual({
      kind: 'error',
      error: 'llm request failed: HTTP 401: bad key Bearer [REDACTED]',
      http: { status: 401, retryAfter: undefined },
    });
  });

  it('returns aborted when the signal fires mid-request', async () => {
    const controller = new AbortController();
    const result = await ask(() => controller.abort(), { signal: controller.signal });
    expect(result).toEqual({ kind: 'aborted' });
  });

  it('reports a refused connection by its code', async () => {
    const started = await serve(() => undefined);
    const { url } = started;
    await new Promise((resolve) => started.server.close(resolve));
    expect(await requestChatCompletion({ url, messages: MESSAGES, signal: new AbortController().signal })).toEqual({
      kind: 'error',
      error: 'llm request failed: ECONNREFUSED',
    });
  });
});
