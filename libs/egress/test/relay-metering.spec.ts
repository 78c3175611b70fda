/**
 * The metering relay end to end: real socat pinned to a real node:http upstream, the relay in front on the
 * agent's socket. Calls are counted and their usage read; a refused call is answered 429 by the relay and
 * never reaches the upstream; bodies stream both ways as they arrive.
 */
import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lstat } from 'node:fs/promises';
import { UPSTREAM_SOCKET_SUFFIX } from '../src/index';
import { meteredForwarder, RecordingMeter, SOCAT } from './relay-support';

const describeIfSocat = SOCAT === undefined ? describe.skip : describe;
if (SOCAT === undefined) console.warn('SKIPPED: socat is not installed; relay specs do not run');

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly host: string | undefined;
  readonly acceptEncoding: string | undefined;
}

function call(
  socketPath: string,
  opts: { method?: string; path?: string; body?: string; agent?: Agent; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/v1/chat/completions',
        agent: opts.agent ?? false,
        headers: { host: '127.0.0.1:17080', 'content-type': 'application/json', ...opts.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(opts.body ?? '{"messages":[]}');
  });
}

describeIfSocat('the metering relay (real socat, real upstream)', () => {
  let upstream: Server;
  let port = 0;
  const seen: Seen[] = [];
  let release: (() => void) | undefined;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, host: req.headers.host, acceptEncoding: req.headers['accept-encoding'] });
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/sse') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: {"choices":[{"delta":{"content":"first"}}]}\n\n');
          // the rest only once the agent has seen the first event: a relay that buffers would hang here
          release = () => res.end('data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}\n\ndata: [DONE]\n\n');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ echo: body.length, usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 } }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('relays a call to the pinned upstream with its Host and identity encoding, and settles its usage', async () => {
    const meter = new RecordingMeter();
    const f = await meteredForwarder(port, meter);
    try {
      expect((await lstat(f.fwd.socketPath)).mode & 0o777).toBe(0o600);
      expect((await lstat(`${f.fwd.dir}${UPSTREAM_SOCKET_SUFFIX}`)).isSocket()).toBe(true);
      const res = await call(f.fwd.socketPath, { path: '/v1/chat/completions?key=sk-secret', body: '{"x":1}' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ echo: 7 });
      expect(seen).toEqual([
        { method: 'POST', url: '/v1/chat/completions?key=sk-secret', host: `127.0.0.1:${port}`, acceptEncoding: 'identity' },
      ]);
      const [outcome] = await meter.waitSettled(1);
      expect(meter.admitted).toEqual([{ method: 'POST', path: '/v1/chat/completions' }]); // never the query
      expect(outcome).toMatchObject({
        status: 200,
        failure: null,
        usage: { promptTokens: 11, completionTokens: 4, totalTokens: 15, trusted: true },
      });
      expect(outcome?.bytesIn).toBeGreaterThan(7);
      expect(outcome?.bytesOut).toBeGreaterThan(Buffer.byteLength(res.body)); // the head too
    } finally {
      await f.cleanup();
    }
  });

  it('answers 429 with an OpenAI-style error once the meter refuses, and the refused calls never reach the upstream', async () => {
    const meter = new RecordingMeter(3);
    const f = await meteredForwarder(port, meter);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const statuses: number[] = [];
      let refusal: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 5; i++) {
        const r = await call(f.fwd.socketPath, { agent });
        statuses.push(r.status);
        if (r.status === 429) refusal = r;
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(seen).toHaveLength(3);
      expect(JSON.parse(refusal?.body ?? '{}')).toEqual({
        error: { message: 'request budget exhausted', type: 'budget_exhausted', param: null, code: 'budget_exhausted' },
      });
      expect(refusal?.headers['retry-after']).toBe('30');
      expect(meter.refused).toHaveLength(2);
    } finally {
      agent.destroy();
      await f.cleanup();
    }
  });

  it('streams an event stream as it arrives (no buffering) and reads its final usage chunk', async () => {
    const meter = new RecordingMeter();
    const f = await meteredForwarder(port, meter);
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = request({ socketPath: f.fwd.socketPath, method: 'POST', path: '/v1/sse', headers: { host: 'x' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
            if (body.includes('first')) release?.();
          });
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end('{}');
      });
      expect(text).toContain('[DONE]');
      const [outcome] = await meter.waitSettled(1);
      expect(outcome?.usage).toEqual({ promptTokens: 3, completionTokens: 2, totalTokens: 5, trusted: true });
    } finally {
      await f.cleanup();
    }
  });

  it('fails closed when the meter cannot count: 503, nothing sent upstream', async () => {
    const meter = new RecordingMeter();
    meter.throwOnAdmit = true;
    const f = await meteredForwarder(port, meter);
    try {
      const res = await call(f.fwd.socketPath);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toMatchObject({ error: { type: 'meter_unavailable' } });
      expect(seen).toHaveLength(0);
    } finally {
      await f.cleanup();
    }
  });
});
