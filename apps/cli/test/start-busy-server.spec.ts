/**
 * `genswarms start` against a server that takes longer than the request timeout to answer the start (a large
 * swarm is planned and launched before the answer): the CLI shows progress while a health probe answers, and
 * reports `unreachable` only when the server itself stops answering. A real HTTP server on port 0.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cli, tempDir } from './support';

const YAML = 'name: big\nagents:\n  - { name: w, count: 3, backend: mock }\n';
/** The request timeout of these runs: the slow start takes several of them. */
const TIMEOUT_MS = 300;

interface Script {
  /** ms from the POST until its 201 (undefined: never answered). */
  readonly answerAfterMs?: number;
  /** The POST's connection is destroyed after this many ms (a proxy or client header timeout). */
  readonly cutAfterMs?: number;
  /** /healthz answers (false: it hangs, as the whole server does). */
  readonly healthy: boolean;
  /** The POST's answer instead of a 201 (a refusal). */
  readonly refusal?: { status: number; body: unknown };
}

/** The slow server: agents appear 200 ms into the POST and are all idle by the time it answers. */
function slowServer(script: Script): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  let postAt: number | undefined;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url === '/healthz') return script.healthy ? send(res, 200, { status: 'ok' }) : undefined;
    if (!script.healthy) return undefined; // the whole server hangs
    if (req.method === 'POST' && req.url === '/api/swarms') {
      postAt = Date.now();
      if (script.refusal !== undefined) return send(res, script.refusal.status, script.refusal.body);
      if (script.answerAfterMs !== undefined)
        setTimeout(() => send(res, 201, { status: 'created', swarm_name: 'big' }), script.answerAfterMs);
      if (script.cutAfterMs !== undefined) setTimeout(() => req.socket.destroy(), script.cutAfterMs);
      return undefined;
    }
    if (req.url?.startsWith('/api/swarms/big/events')) return send(res, 200, { events: [], count: 0 });
    if (req.url === '/api/swarms/big/agents') {
      const since = postAt === undefined ? -1 : Date.now() - postAt;
      if (since < 200) return send(res, 404, { error: 'swarm_not_found', message: 'No swarm named big.' });
      const done = script.answerAfterMs === undefined ? since > 900 : since >= script.answerAfterMs - 50;
      const state = done ? 'idle' : 'starting';
      return send(res, 200, { agents: ['w_1', 'w_2', 'w_3'].map((name) => ({ name, state })) });
    }
    return send(res, 404, { error: 'not_found', message: 'no route' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        paths,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('genswarms start against a busy server', () => {
  const dir = tempDir('gs-cli-start-busy-');
  beforeAll(() => writeFileSync(join(dir.path, 'swarm.yaml'), YAML));
  afterAll(() => dir.cleanup());

  it('waits past the request timeout while the server answers its health probe, showing progress', async () => {
    const server = await slowServer({ answerAfterMs: 6 * TIMEOUT_MS, healthy: true });
    try {
      const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path, requestTimeoutMs: TIMEOUT_MS });
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining('big: agents ready 0/3') });
      expect(r.stdout).toBe('started big: 3/3 agents ready\n');
      expect(r.stderr).not.toContain('unreachable');
      expect(server.paths.filter((p) => p === 'POST /api/swarms')).toHaveLength(1); // a start is never sent twice
    } finally {
      await server.close();
    }
  });

  it('follows the swarm when the start request is cut but the server still answers', async () => {
    const server = await slowServer({ cutAfterMs: 2 * TIMEOUT_MS, healthy: true });
    try {
      const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path, requestTimeoutMs: TIMEOUT_MS });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('big: the start request got no answer but the server is up: following the swarm');
      expect(r.stdout).toBe('started big: 3/3 agents ready\n');
      expect(server.paths.filter((p) => p === 'POST /api/swarms')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('prints a host_limit refusal with the limit and the fix (exit 1), nothing followed', async () => {
    const body = {
      error: 'host_limit',
      message: 'Starting 3 agent(s) would take the host past kernel.pid_max (32768, needs 40000); nothing was started.',
      limit: 'kernel.pid_max',
      value: 32768,
      need: 40000,
      fix: 'sysctl -w kernel.pid_max=40000',
    };
    const server = await slowServer({ healthy: true, refusal: { status: 503, body } });
    try {
      const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path, requestTimeoutMs: TIMEOUT_MS });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('host_limit: Starting 3 agent(s) would take the host past kernel.pid_max');
      expect(r.stderr).toContain('  fix: sysctl -w kernel.pid_max=40000');
      expect(server.paths).toEqual(['POST /api/swarms']);
    } finally {
      await server.close();
    }
  });

  it('still reports unreachable (exit 3) when the server stops answering altogether', async () => {
    const server = await slowServer({ healthy: false });
    try {
      const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path, requestTimeoutMs: TIMEOUT_MS });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/unreachable: cannot reach http:\/\/127\.0\.0\.1:\d+ /);
    } finally {
      await server.close();
    }
  });
});
