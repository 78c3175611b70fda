/**
 * Contract alignments found by the server audit, over HTTP (docs/rest-api.md, docs/ir.md): a stopped swarm
 * still in the store is known to every read; refusals name agents in `agent`; a count above the cap
 * is agent_cap_exceeded, not invalid_count.
 */
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer({ maxAgentsPerSwarm: 4 });
  const config = {
    name: 'st',
    agents: [mockAgent('a'), mockAgent('b', ['x'], { network: 'none' })],
    objects: [{ name: 'rec', handler: 'recorder' }],
    topology: [['a', 'b']],
  };
  await request(s.url).post('/api/swarms').send({ config }).expect(201);
  await waitFor(async () => (await request(s.url).get('/api/swarms/st/agents/a')).body.state === 'idle', 'a idle');
  await request(s.url).post('/api/swarms/st/agents/a/task').send({ task: 'hi' }).expect(200);
  await waitFor(
    async () => (await request(s.url).get('/api/swarms/st/agents/a/turns')).body.turns?.[0]?.status === 'completed',
    'turn completed',
  );
  await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: 'live', agents: [mockAgent('a')], objects: [{ name: 'rec', handler: 'recorder' }] } })
    .expect(201);
  await request(s.url).delete('/api/swarms/st').expect(200);
});
afterAll(async () => {
  await s.close();
});

describe('a stopped swarm still in the store is known', () => {
  test.each<[string, string, Record<string, unknown>]>([
    [
      'agents',
      '/api/swarms/st/agents',
      { agents: [expect.objectContaining({ name: 'a', state: 'stopped' }), expect.objectContaining({ name: 'b', state: 'stopped' })] },
    ],
    [
      'agent detail',
      '/api/swarms/st/agents/b',
      { name: 'b', swarm: 'st', state: 'stopped', backend: 'mock', client: 'genswarms-agent', network: 'none' },
    ],
    ['objects', '/api/swarms/st/objects', { objects: [{ name: 'rec', handler: 'recorder', state: 'stopped' }] }],
    ['object detail', '/api/swarms/st/objects/rec', { object: { name: 'rec', handler: 'recorder', config: {} }, state: 'stopped' }],
    ['topology', '/api/swarms/st/topology', { topology: [{ from: 'a', targets: ['b'] }] }],
    ['turns', '/api/swarms/st/agents/a/turns', { turns: [expect.objectContaining({ status: 'completed' })] }],
    ['logs', '/api/swarms/st/agents/a/logs', { logs: [] }],
  ])('GET %s → 200 from the stored config', async (_what, path, body) => {
    const res = await request(s.url).get(path);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(body);
  });

  it('GET the swarm detail lists the configured backend, client and network', async () => {
    const res = await request(s.url).get('/api/swarms/st');
    expect(res.body).toMatchObject({ status: 'stopped', agent_count: 2, object_count: 1, topology: [{ from: 'a', targets: ['b'] }] });
    expect(res.body.agents.map((a: Record<string, unknown>) => [a['name'], a['backend'], a['client'], a['network']])).toEqual([
      ['a', 'mock', 'genswarms-agent', 'open'],
      ['b', 'mock', 'genswarms-agent', 'none'],
    ]);
  });

  test.each([
    ['/api/swarms/st/agents/zz', 'agent_not_found'],
    ['/api/swarms/st/agents/zz/turns', 'agent_not_found'],
    ['/api/swarms/st/objects/ghost', 'object_not_found'],
    ['/api/swarms/never/agents', 'swarm_not_found'],
    ['/api/swarms/never/topology', 'swarm_not_found'],
    ['/api/swarms/never/objects', 'swarm_not_found'],
  ])('GET %s → 404 %s', async (path, code) => {
    const res = await request(s.url).get(path);
    expect([res.status, res.body.error]).toEqual([404, code]);
  });
});

describe('error detail names', () => {
  it('scale of an unknown base → 404 agent_not_found with agent', async () => {
    const res = await request(s.url).post('/api/swarms/live/agents/zz/scale').send({ count: 1 });
    expect([res.status, res.body]).toEqual([404, { error: 'agent_not_found', message: expect.any(String), agent: 'zz' }]);
  });

  it('adding an existing agent → 400 already_exists with agent', async () => {
    const res = await request(s.url).post('/api/swarms/live/agents').send(mockAgent('a'));
    expect([res.status, res.body]).toEqual([400, { error: 'already_exists', message: expect.any(String), agent: 'a' }]);
  });

  it('adding an existing object → 400 already_exists with no name detail', async () => {
    const res = await request(s.url).post('/api/swarms/live/objects').send({ name: 'rec', handler: 'echo' });
    expect([res.status, res.body]).toEqual([400, { error: 'already_exists', message: expect.any(String) }]);
  });
});

describe('scale count above the cap', () => {
  test.each([[5], [100001], [2 ** 53]])(
    'a valid integer count %d above the cap → 400 agent_cap_exceeded with count and limit',
    async (count) => {
      const res = await request(s.url).post('/api/swarms/live/agents/a/scale').send({ count });
      expect([res.status, res.body.error, res.body.limit]).toEqual([400, 'agent_cap_exceeded', 4]);
      expect(res.body.count).toBeGreaterThan(4);
    },
  );
});
