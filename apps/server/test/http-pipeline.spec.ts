import { request as httpRequestRaw } from 'node:http';
import request from 'supertest';
import { TOKEN_REQUIRED_BODY, UNAUTHORIZED_BODY } from '@genswarms/security';
import type { SwarmService } from '@genswarms/engine';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Route } from '../src/index';
import { fakeEngine, offShape } from './support/fake-engine';
import { DEFAULT_ROUTES } from '../src/index';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const F = 'pipeline-full-token';
const LIMIT = 1048576;
const dir = tempDir('gs-pipeline-');

/** A test-only route: an entry the server's table does not have, with its handler. */
const testRoute = (method: Route['method'], path: string, handler: RequestHandler): Route => ({
  method,
  path,
  operationId: `test${path.replace('/', '_')}`,
  tag: 'test',
  summary: 'test route',
  scope: 'full',
  success: { status: 200, name: 'TestAnswer', schema: z.unknown() },
  errors: [],
  bind: () => handler,
});
const boom: Route[] = [
  testRoute('get', '/boom', () => {
    throw new Error('secret detail /etc/hidden');
  }),
  testRoute('post', '/echo', (req, res) => {
    res.json({ body: req.body as unknown });
  }),
];

let open: TestServer; // F unset (loopback mode)
let tokened: TestServer; // F set

beforeAll(async () => {
  const routes = [...DEFAULT_ROUTES, ...boom];
  open = await startTestServer(testConfig(dir.path), { routes });
  tokened = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F } }), { routes });
});
afterAll(async () => {
  await open.close();
  await tokened.close();
  dir.cleanup();
});

const auth = { Authorization: `Bearer ${F}` };

describe('hardening headers', () => {
  test.each([
    ['GET', '/'],
    ['GET', '/nope'],
  ])('%s %s carries nosniff, no-store, JSON charset and no X-Powered-By', async (_m, path) => {
    const res = await request(tokened.url).get(path).set(auth);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // no-store answers are never revalidated: no ETag, so no hash of every response body
    expect(res.headers['etag']).toBeUndefined();
  });

  it('also applies to a 401', async () => {
    const res = await request(tokened.url).get('/');
    expect(res.status).toBe(401);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('auth runs before body parsing and routing', () => {
  const big = 'x'.repeat(LIMIT + 10);
  type Case = [string, (r: request.Agent | ReturnType<typeof request>) => request.Test, number, string];
  const CASES: Case[] = [
    ['an unknown route', (r) => r.get('/definitely/not/here'), 404, 'not_found'],
    ['a wrong method', (r) => r.delete('/api/config/validate'), 404, 'not_found'],
    ['a body over 1 MiB', (r) => r.post('/echo').set('Content-Type', 'application/json').send(`{"a":"${big}"}`), 413, 'payload_too_large'],
    ['malformed JSON', (r) => r.post('/echo').set('Content-Type', 'application/json').send('{"a":'), 400, 'invalid_json'],
    ['a non-object JSON top level', (r) => r.post('/echo').set('Content-Type', 'application/json').send('[1,2]'), 400, 'invalid_json'],
    ['a JSON string top level', (r) => r.post('/echo').set('Content-Type', 'application/json').send('"x"'), 400, 'invalid_json'],
    ['a wrong content type', (r) => r.post('/echo').set('Content-Type', 'text/plain').send('hello'), 415, 'unsupported_media_type'],
    ['a form body', (r) => r.post('/echo').type('form').send('a=1'), 415, 'unsupported_media_type'],
    [
      'a gzip-encoded JSON body',
      (r) => r.post('/echo').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{}'),
      415,
      'unsupported_media_type',
    ],
    [
      'a top-level __proto__ key',
      (r) => r.post('/echo').set('Content-Type', 'application/json').send('{"__proto__":{"admin":true}}'),
      400,
      'invalid_json',
    ],
    [
      'a nested __proto__ key',
      (r) => r.post('/echo').set('Content-Type', 'application/json').send('{"a":[{"b":{"__proto__":{}}}]}'),
      400,
      'invalid_json',
    ],
    [
      'a constructor key',
      (r) => r.post('/echo').set('Content-Type', 'application/json').send('{"constructor":{"prototype":{}}}'),
      400,
      'invalid_json',
    ],
    [
      'a nested prototype key',
      (r) => r.post('/echo').set('Content-Type', 'application/json').send('{"x":{"prototype":1}}'),
      400,
      'invalid_json',
    ],
    ['a non-preflight OPTIONS', (r) => r.options('/api/swarms'), 404, 'not_found'],
  ];

  test.each(CASES)('unauthenticated: %s → 401 unauthorized', async (_label, make) => {
    const res = await make(request(tokened.url));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual(UNAUTHORIZED_BODY);
  });

  test.each(CASES)('authenticated: %s → %i %s', async (_label, make, status, code) => {
    const res = await make(request(tokened.url)).set(auth);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    if (status === 413) expect(res.body.limit).toBe(LIMIT);
  });

  it('accepts a JSON body with charset parameter and exactly 1 MiB', async () => {
    const filler = 'y'.repeat(LIMIT - '{"a":""}'.length);
    const res = await request(tokened.url)
      .post('/echo')
      .set(auth)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(`{"a":"${filler}"}`);
    expect(res.status).toBe(200);
    expect(res.body.body.a).toHaveLength(filler.length);
  });

  it('gives {} when there is no body', async () => {
    const res = await request(tokened.url).post('/echo').set(auth);
    expect(res.body).toEqual({ body: {} });
  });

  it('refuses a chunked body over the limit with 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${tokened.url}/echo`);
      const req = httpRequestRaw(
        {
          host: url.hostname,
          port: url.port,
          path: '/echo',
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"a":"');
      for (let i = 0; i < 20; i++) req.write('z'.repeat(65536));
      req.end('"}');
    });
    expect(status).toBe(413);
  });
});

describe('500 handler', () => {
  it('answers internal_error with a request_id and logs the detail only', async () => {
    const res = await request(tokened.url).get('/boom').set(auth);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal_error', message: 'Internal error', request_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('/etc/hidden');
    expect(tokened.logs()).toContain(res.body.request_id);
    expect(res.headers['x-request-id']).toBe(res.body.request_id); // one id: header, body, log lines
  });
});

describe('routes', () => {
  it('GET / describes the API', async () => {
    const res = await request(open.url).get('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'genswarms',
      version: expect.any(String),
      websocket: { path: '/socket.io', namespace: '/swarm' },
    });
    expect(res.body.endpoints).toEqual(expect.arrayContaining(['GET /', 'GET /api/swarms', 'POST /api/config/validate']));
  });

  it('GET /api/swarms is empty without an engine', async () => {
    const res = await request(open.url).get('/api/swarms');
    expect(res.body).toEqual({ swarms: [] });
  });

  it('GET /api/swarms asks an injected engine', async () => {
    const engine: SwarmService = fakeEngine({
      listSwarms: async () => ({ swarms: offShape([{ name: 'a', status: 'running' }]) }),
      hasSwarm: async () => true,
    });
    const s = await startTestServer(testConfig(dir.path), { engine });
    try {
      expect((await request(s.url).get('/api/swarms')).body).toEqual({ swarms: [{ name: 'a', status: 'running' }] });
    } finally {
      await s.close();
    }
  });

  test.each(['/api/swarms/', '/API/swarms'])('matches paths strictly: %s is not_found', async (path) => {
    expect((await request(open.url).get(path)).status).toBe(404);
  });

  it('does not let the socket.io path answer plain HTTP before auth', async () => {
    const res = await request(tokened.url).get('/socket.io/?EIO=4&transport=polling');
    expect(res.status).toBe(401);
  });
});

describe('CORS', () => {
  const preflight = (server: TestServer, origin: string) =>
    request(server.url)
      .options('/api/swarms')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'Authorization, Content-Type');

  test.each(['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:4000'])(
    'preflight from allowed %s → 204 with headers, never 401',
    async (origin) => {
      const res = await preflight(tokened, origin);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['vary']).toBe('Origin');
      expect(res.headers['access-control-allow-methods']).toBe('POST');
      expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type');
      expect(res.headers['access-control-max-age']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  test.each(['http://localhost.evil.com', 'http://localhost:3000.evil.com', 'https://notlocalhost', 'http://evil.com/localhost'])(
    'preflight from disallowed %s → 204 without CORS headers',
    async (origin) => {
      const res = await preflight(tokened, origin);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    },
  );

  it('echoes an allowed Origin on an actual request, even on a 401', async () => {
    const res = await request(tokened.url).get('/api/swarms').set('Origin', 'http://localhost:3000');
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['vary']).toBe('Origin');
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
  });

  it('gives no CORS headers to a disallowed Origin on a safe request, which still succeeds', async () => {
    const res = await request(tokened.url).get('/api/swarms').set(auth).set('Origin', 'http://localhost.evil.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s from a disallowed Origin with 403 origin_not_allowed', async (method) => {
    const verb = method.toLowerCase() as 'post';
    const res = await request(tokened.url)[verb](`/api/config/validate`).set(auth).set('Origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('origin_not_allowed');
    expect(tokened.events.events.some((e) => e.event_type === 'auth_denied' && e.metadata['reason'] === 'origin_not_allowed')).toBe(true);
  });

  it('lets an unsafe method without Origin through (non-browser client)', async () => {
    const res = await request(tokened.url).post('/api/config/validate').set(auth).send({ content: '{}', format: 'ini' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_format');
  });

  it('uses an exact list when configured, with * echoing the origin', async () => {
    const listed = await startTestServer(
      testConfig(dir.path, { cors: { kind: 'list', origins: ['https://app.example.com'] }, tokens: { fullToken: F } }),
    );
    const any = await startTestServer(testConfig(dir.path, { cors: { kind: 'any' }, tokens: { fullToken: F } }));
    try {
      expect((await preflight(listed, 'https://app.example.com')).headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect((await preflight(listed, 'https://app.example.com:443')).headers['access-control-allow-origin']).toBeUndefined();
      expect((await preflight(listed, 'http://localhost:3000')).headers['access-control-allow-origin']).toBeUndefined();
      expect((await preflight(any, 'https://x.example')).headers['access-control-allow-origin']).toBe('https://x.example');
    } finally {
      await listed.close();
      await any.close();
    }
  });
});

describe('DNS-rebinding Host guard (F unset)', () => {
  test.each(['evil.com', 'evil.com:4000', 'localhost.evil.com', '127.0.0.1.nip.io'])(
    'refuses Host %s with 403 host_not_allowed',
    async (host) => {
      const res = await request(open.url).get('/api/swarms').set('Host', host);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('host_not_allowed');
    },
  );

  test.each(['localhost:4000', '127.0.0.1', '[::1]:4000'])('accepts Host %s', async (host) => {
    expect((await request(open.url).get('/api/swarms').set('Host', host)).status).toBe(200);
  });

  it('refuses a request without a Host header', async () => {
    const url = new URL(open.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequestRaw({ host: url.hostname, port: url.port, path: '/api/swarms', setHost: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect([400, 403]).toContain(status);
  });

  it('does not apply once a full token is set', async () => {
    expect((await request(tokened.url).get('/api/swarms').set(auth).set('Host', 'evil.com')).status).toBe(200);
  });

  it('never reveals TOKEN_REQUIRED to loopback callers', async () => {
    expect((await request(open.url).get('/api/swarms')).body).not.toEqual(TOKEN_REQUIRED_BODY);
  });
});
