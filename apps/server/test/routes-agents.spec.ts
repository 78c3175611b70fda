import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer({ maxAgentsPerSwarm: 4 });
  await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: 'sw', agents: [mockAgent('a', ['reply to {{content}}']), mockAgent('b')], topology: [['a', 'b']] } })
    .expect(201);
});
afterAll(async () => {
  await s.close();
});

describe('agents', () => {
  it('lists agents with the status shape', async () => {
    const res = await request(s.url).get('/api/swarms/sw/agents');
    expect(res.status).toBe(200);
    const a = res.body.agents.find((x: { name: string }) => x.name === 'a');
    expect(Object.keys(a).sort()).toEqual(
      [
        'awaiting',
        'backend',
        'client',
        'failure',
        'inbox_size',
        'isolation',
        'last_activity',
        'llm_usage',
        'name',
        'needs_attention',
        'network',
        'started_at',
        'state',
        'swarm',
        'turn',
        'turn_started_at',
      ].sort(),
    );
    expect(a).toMatchObject({ name: 'a', swarm: 'sw', backend: 'mock', needs_attention: null, isolation: null }); // mock: no process to read
  });

  it('task → sent, the turn completes, turns/history/logs answer', async () => {
    await waitFor(async () => (await request(s.url).get('/api/swarms/sw/agents/a')).body.state === 'idle', 'a idle');
    const res = await request(s.url).post('/api/swarms/sw/agents/a/task').send({ task: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', agent: 'a', id: expect.any(String), queued: 1 });
    const turns = await waitFor(async () => {
      const t = (await request(s.url).get('/api/swarms/sw/agents/a/turns')).body.turns;
      return t.length > 0 && t[0].status === 'completed' ? t : undefined;
    }, 'turn completed');
    expect(turns[0]).toMatchObject({
      item_id: res.body.id,
      from: expect.any(String),
      reply_preview: expect.stringContaining('reply to hi'),
    });
    const logs = await request(s.url).get('/api/swarms/sw/agents/a/logs');
    expect([logs.status, Array.isArray(logs.body.logs)]).toEqual([200, true]);
  });

  test.each<[string, string, Record<string, unknown>, number, string]>([
    ['task without body', '/api/swarms/sw/agents/a/task', {}, 400, 'validation_failed'],
    ['task non-string', '/api/swarms/sw/agents/a/task', { task: 5 }, 400, 'validation_failed'],
    ['task empty', '/api/swarms/sw/agents/a/task', { task: '' }, 400, 'validation_failed'],
    ['task unknown agent', '/api/swarms/sw/agents/zz/task', { task: 'x' }, 404, 'agent_not_found'],
    ['task off-grammar agent', '/api/swarms/sw/agents/..%2F..%2Fetc/task', { task: 'x' }, 404, 'agent_not_found'],
    ['task unknown swarm', '/api/swarms/nope/agents/a/task', { task: 'x' }, 404, 'swarm_not_found'],
    ['resume an idle agent', '/api/swarms/sw/agents/b/resume', {}, 409, 'invalid_state'],
    ['restart unknown agent', '/api/swarms/sw/agents/zz/restart', {}, 404, 'agent_not_found'],
    ['add: invalid name', '/api/swarms/sw/agents', { name: '1bad', backend: { type: 'mock' } }, 400, 'invalid_name'],
    ['add: no name', '/api/swarms/sw/agents', { backend: { type: 'mock' } }, 400, 'invalid_name'],
    ['add: already exists', '/api/swarms/sw/agents', mockAgent('a'), 400, 'already_exists'],
    [
      'add: forbidden host-escape key',
      '/api/swarms/sw/agents',
      { ...mockAgent('c1'), extra_rw_binds: ['/'] },
      400,
      'forbidden_config_keys',
    ],
    ['add: unknown edge endpoint', '/api/swarms/sw/agents', { ...mockAgent('c2'), connections: ['ghost'] }, 400, 'unknown_edge_endpoint'],
    ['add: unknown swarm', '/api/swarms/nope/agents', mockAgent('c'), 404, 'swarm_not_found'],
    ['scale: missing count', '/api/swarms/sw/agents/b/scale', {}, 400, 'invalid_count'],
    ['scale: string count', '/api/swarms/sw/agents/b/scale', { count: '2' }, 400, 'invalid_count'],
    ['scale: float count', '/api/swarms/sw/agents/b/scale', { count: 1.5 }, 400, 'invalid_count'],
    ['scale: negative count', '/api/swarms/sw/agents/b/scale', { count: -1 }, 400, 'invalid_count'],
    ['scale: over the cap', '/api/swarms/sw/agents/b/scale', { count: 50 }, 400, 'agent_cap_exceeded'],
    ['scale: unknown base', '/api/swarms/sw/agents/zz/scale', { count: 1 }, 404, 'agent_not_found'],
  ])('%s → %s %s', async (_l, path, body, status, code) => {
    const res = await request(s.url).post(path).send(body);
    expect([res.status, res.body.error]).toEqual([status, code]);
  });

  test.each([['turns'], ['messages']])('GET %s?limit=0 → 400 invalid_query', async (what) => {
    const res = await request(s.url).get(what === 'turns' ? '/api/swarms/sw/agents/a/turns?limit=0' : '/api/swarms/sw/messages?limit=0');
    expect([res.status, res.body.error, res.body.param]).toEqual([400, 'invalid_query', 'limit']);
  });

  test.each([['/api/swarms/sw/agents/zz'], ['/api/swarms/sw/agents/zz/turns'], ['/api/swarms/sw/agents/zz/logs']])(
    'GET %s → 404 agent_not_found',
    async (path) => {
      const res = await request(s.url).get(path);
      expect([res.status, res.body.error]).toEqual([404, 'agent_not_found']);
    },
  );

  it('GET an agent of an unknown swarm → 404 swarm_not_found', async () => {
    expect((await request(s.url).get('/api/swarms/nope/agents/a')).body.error).toBe('swarm_not_found');
  });

  it('add (201), restart, remove (200) an agent; the removed one answers 404', async () => {
    const add = await request(s.url)
      .post('/api/swarms/sw/agents')
      .send({ ...mockAgent('c'), incoming: ['a'] });
    expect([add.status, add.body]).toEqual([201, { status: 'added', name: 'c' }]);
    expect((await request(s.url).get('/api/swarms/sw/topology')).body.topology).toEqual(
      expect.arrayContaining([{ from: 'a', targets: ['b', 'c'] }]),
    );
    expect((await request(s.url).post('/api/swarms/sw/agents/c/restart')).body).toEqual({ status: 'restarted', agent: 'c' });
    expect((await request(s.url).delete('/api/swarms/sw/agents/c')).body).toEqual({ status: 'removed', name: 'c' });
    expect((await request(s.url).get('/api/swarms/sw/agents/c')).status).toBe(404);
    expect((await request(s.url).delete('/api/swarms/sw/agents/c')).status).toBe(404);
  });

  it('scale adds and removes instances of a base agent', async () => {
    const up = await request(s.url).post('/api/swarms/sw/agents/b/scale').send({ count: 2 });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: 'ok', result: { failed: [] } });
    const names = (await request(s.url).get('/api/swarms/sw/agents')).body.agents.map((a: { name: string }) => a.name);
    expect(names.filter((n: string) => n.startsWith('b'))).toHaveLength(2);
    const down = await request(s.url).post('/api/swarms/sw/agents/b/scale').send({ count: 1 });
    expect(down.body).toMatchObject({ status: 'ok', result: { added: [], failed: [] } });
    expect(down.body.result.removed).toHaveLength(1);
  });
});

describe('agent history', () => {
  it('GET history lists items received and messages sent', async () => {
    const res = await request(s.url).get('/api/swarms/sw/agents/a/history');
    expect([res.status, Array.isArray(res.body.history)]).toEqual([200, true]);
    expect(res.body.history).toContainEqual(
      expect.objectContaining({ direction: 'received', kind: 'task', from: '_operator', content_preview: 'hi', status: 'completed' }),
    );
    expect((await request(s.url).get('/api/swarms/sw/agents/a/history?limit=1')).body.history).toHaveLength(1);
  });
  it('GET history?limit=0 → 400 invalid_query; unknown agent → 404', async () => {
    expect((await request(s.url).get('/api/swarms/sw/agents/a/history?limit=0')).body).toMatchObject({
      error: 'invalid_query',
      param: 'limit',
    });
    expect((await request(s.url).get('/api/swarms/sw/agents/zz/history')).body.error).toBe('agent_not_found');
  });
});
