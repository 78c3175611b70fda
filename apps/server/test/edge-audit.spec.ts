import request from 'supertest';
import { mockAgent, startEngineServer } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import type { StoredEvent } from '@genswarms/engine';
import { fakeEngine, offShape } from './support/fake-engine';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';
import { connectSwarm } from './support/swarm-socket';
import type { SwarmClient } from './support/swarm-socket';
import { MAX_SUBSCRIPTIONS } from '../src/socket/swarm-handlers';

let s: EngineServer;
const clients: SwarmClient[] = [];
const connect = async (url = s.url): Promise<SwarmClient> => {
  const c = await connectSwarm(url);
  clients.push(c);
  return c;
};
/** Emits with raw arguments; the ack (if any) is whatever the server calls back with, within 15 s (a loaded CI host is slow, never silent). */
const emitRaw = (c: SwarmClient, event: string, ...args: unknown[]): Promise<unknown> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no ack'), 15_000);
    c.socket.emit(event, ...args, (ack: unknown) => {
      clearTimeout(timer);
      resolve(ack);
    });
  });

beforeAll(async () => {
  s = await startEngineServer();
  await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: 'one', agents: [mockAgent('a'), mockAgent('b')] } })
    .expect(201);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await s.close();
});

describe('/swarm acks: the client ack is the last argument, and every event with an ack is answered', () => {
  it('join with only an ack (no payload) acks swarm_not_found instead of never answering', async () => {
    const c = await connect();
    expect(await emitRaw(c, 'join')).toMatchObject({ ok: false, error: 'swarm_not_found' });
  });

  test.each<[string, unknown[], Record<string, unknown>]>([
    ['join', [{ swarm: 'one' }, 'extra'], { ok: true, swarm: 'one' }],
    ['get_status', [{}, 'extra', 2], { ok: true }],
    ['send_task', [{ agent: 'a', task: 'x' }, null], { ok: true, status: 'sent' }],
  ])('%s with extra arguments still acks', async (event, args, expected) => {
    const c = await connect();
    await c.ask('join', { swarm: 'one' });
    expect(await emitRaw(c, event, ...args)).toMatchObject(expected);
  });

  test.each(['bogus', 'JOIN', '__proto__', 'constructor', 'agent_output'])('an unknown event %s acks not_found', async (event) => {
    const c = await connect();
    expect(await emitRaw(c, event, {})).toMatchObject({ ok: false, error: 'not_found', message: expect.any(String) });
  });
});

describe('/swarm subscriptions are validated and bounded', () => {
  test.each<[unknown, string]>([
    [{ filters: { swarm: 'other' } }, 'swarm'],
    [{ filters: { colour: 'red' } }, 'colour'],
    [{ filters: { level: 'loud' } }, 'level'],
    [{ filters: { agent: '../x' } }, 'agent'],
    [{ filters: ['level'] }, 'filters'],
    [{ filters: 'x' }, 'filters'],
    [{ extra: 1 }, 'extra'],
  ])('subscribe_events %j → invalid_query naming param %s', async (payload, param) => {
    const c = await connect();
    await c.ask('join', { swarm: 'one' });
    expect(await c.ask('subscribe_events', payload)).toMatchObject({ ok: false, error: 'invalid_query', param });
  });

  it('a repeated filter set is held once; distinct sets beyond the bound are refused', async () => {
    const c = await connect();
    await c.ask('join', { swarm: 'one' });
    for (let i = 0; i < MAX_SUBSCRIPTIONS + 5; i++)
      expect(await c.ask('subscribe_events', { filters: { agent: 'a' } })).toMatchObject({ ok: true });
    for (let i = 1; i < MAX_SUBSCRIPTIONS; i++)
      expect(await c.ask('subscribe_events', { filters: { agent: `n${i}` } })).toMatchObject({ ok: true });
    expect(await c.ask('subscribe_events', { filters: { agent: 'over' } })).toMatchObject({
      ok: false,
      error: 'invalid_query',
      param: 'filters',
      limit: MAX_SUBSCRIPTIONS,
    });
    expect(await c.ask('unsubscribe_events', {})).toEqual({ ok: true, unsubscribed: true });
    expect(await c.ask('subscribe_events', { filters: { agent: 'over' } })).toMatchObject({ ok: true });
  });

  it('single-agent log subscriptions are bounded; the all-agents one is not', async () => {
    const c = await connect();
    await c.ask('join', { swarm: 'one' });
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) expect(await c.ask('subscribe_logs', { agent: `n${i}` })).toMatchObject({ ok: true });
    expect(await c.ask('subscribe_logs', { agent: 'n0' })).toMatchObject({ ok: true });
    expect(await c.ask('subscribe_logs', { agent: 'over' })).toMatchObject({
      ok: false,
      error: 'invalid_query',
      param: 'agent',
      limit: MAX_SUBSCRIPTIONS,
    });
    expect(await c.ask('subscribe_logs', {})).toMatchObject({ ok: true, agent: null });
  });
});

describe('events routes check the query even for a name that cannot exist', () => {
  test.each([
    '/api/swarms/..%2F/events?limit=abc',
    '/api/swarms/%2e%2e/events?level=loud',
    '/api/swarms/' + 'a'.repeat(65) + '/events?limit=1&limit=2',
    '/api/swarms/one/agents/%00/events?since_id=-1',
    '/api/swarms/%E2%82%AC/agents/a/events?minutes=0',
  ])('GET %s → 400 invalid_query', async (path) => {
    const res = await request(s.url).get(path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_query', param: expect.any(String) });
  });

  test.each(['/api/swarms/%2e%2e/events?limit=5', '/api/swarms/one/agents/..%2F/events?agent=zz'])(
    'GET %s with a valid query → 200 empty',
    async (path) => {
      const res = await request(s.url).get(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ events: [], count: 0 });
    },
  );
});

describe('the edge redacts every answer that can carry secrets, whatever the engine returns', () => {
  const dir = tempDir('gs-redact-');
  const leaky: StoredEvent = {
    id: 1,
    timestamp: '2026-01-01T00:00:00.000Z',
    level: 'info',
    category: 'agent',
    swarm: 'leaky',
    agent: 'a',
    event_type: 'agent_added',
    message: 'added',
    metadata: { api_key: 'sk-LEAK1', spec: { config: { env: { K: 'sk-LEAK2' } }, password: 'sk-LEAK3' } },
  };
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(testConfig(dir.path), {
      engine: fakeEngine({
        hasSwarm: async () => true,
        getSwarm: async () => offShape({ name: 'leaky', agents: [{ name: 'a', api_key: 'sk-LEAK4', config: { env: { X: 'sk-LEAK5' } } }] }),
        listSwarms: async () => ({ swarms: offShape([{ name: 'leaky', config: { env: { K: 'sk-LEAK6' } } }]) }),
        listAgents: async () => ({ agents: offShape([{ name: 'a', api_key: 'sk-LEAK7' }]) }),
        getAgent: async () => offShape({ name: 'a', spec: { config: { env: { K: 'sk-LEAK8' } } } }),
        listObjects: async () => ({
          objects: offShape([{ name: 'o', handler: 'h', state: 'running', config: { db_password: 'sk-LEAK9' } }]),
        }),
        getObject: async () => ({ object: { name: 'o', handler: 'h', config: { auth_token: 'sk-LEAK10' } }, state: 'running' }),
        recentEvents: async () => [leaky],
        queryEvents: async () => ({ events: [leaky], count: 1, query: { limit: 100 } }),
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    dir.cleanup();
  });

  test.each(['/api/events', '/api/swarms/leaky/events', '/api/swarms/leaky/agents/a/events'])('GET %s', async (path) => {
    const res = await request(t.url).get(path);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/sk-LEAK/);
    expect(res.body.events[0].metadata.api_key).toBe('[REDACTED]');
  });

  test.each([
    '/api/swarms',
    '/api/swarms/leaky',
    '/api/swarms/leaky/agents',
    '/api/swarms/leaky/agents/a',
    '/api/swarms/leaky/objects',
    '/api/swarms/leaky/objects/o',
  ])('GET %s (status routes)', async (path) => {
    const res = await request(t.url).get(path);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/sk-LEAK/);
    expect(res.text).toContain('[REDACTED]');
  });

  test.each<[string, unknown]>([
    ['get_status', {}],
    ['subscribe_events', {}],
    ['subscribe_logs', {}],
  ])('socket %s ack', async (event, payload) => {
    const c = await connect(t.url);
    expect(await c.ask('join', { swarm: 'leaky' })).toMatchObject({ ok: true });
    const ack = await c.ask(event, payload);
    expect(ack).toMatchObject({ ok: true });
    expect(JSON.stringify(ack)).not.toMatch(/sk-LEAK/);
    expect(JSON.stringify(ack)).toContain('[REDACTED]');
  });
});
