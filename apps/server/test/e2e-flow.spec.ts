import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import { connectSwarm } from './support/swarm-socket';

let s: EngineServer;
beforeEach(async () => {
  s = await startEngineServer({ maxAgentsPerSwarm: 3 });
});
afterEach(async () => {
  await s.close();
});

const events = async (swarm: string): Promise<Array<Record<string, unknown>>> =>
  (await request(s.url).get(`/api/swarms/${swarm}/events?since_id=0&limit=1000`)).body.events;
const idle = (swarm: string, agent: string): Promise<boolean> =>
  waitFor(async () => (await request(s.url).get(`/api/swarms/${swarm}/agents/${agent}`)).body.state === 'idle', `${agent} idle`);

describe('end to end through the real server (mock agents)', () => {
  it('config_path → task → turn → receipt → routed message → second turn; socket events arrive in order', async () => {
    const writer = 'draft: {{content}}\n<<SWARM_MSG:TO=critic:START>>\nplease review {{content}}\n<<SWARM_MSG:END>>';
    s.writeConfig('flow.json', {
      name: 'flow',
      agents: [mockAgent('writer', [writer]), mockAgent('critic', ['ok: {{content}}'])],
      topology: [['writer', 'critic']],
    });
    await request(s.url).post('/api/swarms').send({ config_path: 'flow.json' }).expect(201);
    const c = await connectSwarm(s.url);
    try {
      await c.ask('join', { swarm: 'flow' });
      await c.ask('subscribe_events', {});
      await idle('flow', 'writer');
      await request(s.url).post('/api/swarms/flow/agents/writer/task').send({ task: 'essay' }).expect(200);
      await waitFor(
        async () =>
          c.pushes.some((p) => p.type === 'event' && p.payload['event_type'] === 'turn_completed' && p.payload['agent'] === 'critic'),
        'critic turn',
      );
      const seen = c.pushes
        .filter((p) => p.type === 'event')
        .map((p) => `${String(p.payload['event_type'])}:${String(p.payload['agent'])}`);
      const order = [
        'task_sent:writer',
        'turn_started:writer',
        'turn_completed:writer',
        'message_routed:writer',
        'turn_started:critic',
        'turn_completed:critic',
      ];
      const idx = order.map((t) => seen.indexOf(t));
      expect(idx.every((i) => i >= 0)).toBe(true);
      expect([...idx].sort((a, b) => a - b)).toEqual(idx);
      const ids = c.pushes.filter((p) => p.type === 'event').map((p) => Number(p.payload['id']));
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    } finally {
      c.close();
    }
    const turns = (await request(s.url).get('/api/swarms/flow/agents/writer/turns')).body.turns;
    expect(turns[0]).toMatchObject({ status: 'completed', reply_preview: expect.stringContaining('draft: essay') });
    expect((await request(s.url).get('/api/swarms/flow/messages')).body.messages).toMatchObject([
      { from: 'writer', to: 'critic', type: 'direct' },
    ]);
  });

  it('a topology denial leaves no delivery and no message-log entry', async () => {
    const reply = 'x\n<<SWARM_MSG:TO=c:START>>\nsneaky\n<<SWARM_MSG:END>>';
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'deny', agents: [mockAgent('a', [reply]), mockAgent('b'), mockAgent('c')], topology: [['a', 'b']] } })
      .expect(201);
    await idle('deny', 'a');
    await request(s.url).post('/api/swarms/deny/agents/a/task').send({ task: 't' }).expect(200);
    await waitFor(async () => (await events('deny')).some((e) => e.event_type === 'invalid_route'), 'invalid_route');
    expect((await request(s.url).get('/api/swarms/deny/messages')).body.messages).toEqual([]);
    expect((await request(s.url).get('/api/swarms/deny/agents/c/turns')).body.turns).toEqual([]);
    expect(fs.existsSync(path.join(s.home, 'workspaces', 'deny', 'c', '.inbox'))).toBe(false);
  });

  it('runtime mutations replay from the overlay after stop and start', async () => {
    const config = { name: 'ov', agents: [mockAgent('a'), mockAgent('b')] };
    await request(s.url).post('/api/swarms').send({ config }).expect(201);
    await request(s.url)
      .post('/api/swarms/ov/agents')
      .send({ ...mockAgent('c'), incoming: ['a'] })
      .expect(201);
    await request(s.url)
      .patch('/api/swarms/ov/topology')
      .send({ add: [['a', 'b']] })
      .expect(200);
    await request(s.url).delete('/api/swarms/ov').expect(200);
    await request(s.url).post('/api/swarms').send({ config }).expect(201);
    const detail = (await request(s.url).get('/api/swarms/ov')).body;
    expect(detail.agents.map((a: { name: string }) => a.name).sort()).toEqual(['a', 'b', 'c']);
    expect(detail.topology).toEqual([{ from: 'a', targets: ['c', 'b'] }]);
  });

  it('cap and forbidden keys are refused over REST with nothing changed', async () => {
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'cap', agents: [mockAgent('a'), mockAgent('b')] } })
      .expect(201);
    const before = {
      detail: (await request(s.url).get('/api/swarms/cap')).body,
      overlay: (await request(s.url).get('/api/swarms/cap/overlay')).body,
    };
    const refusals = [
      await request(s.url).post('/api/swarms/cap/agents/a/scale').send({ count: 5 }),
      await request(s.url)
        .post('/api/swarms/cap/agents')
        .send({ ...mockAgent('c'), backend: { type: 'mock', opts: { agent_binary_path: '/bin/sh' } } }),
      await request(s.url)
        .post('/api/swarms/cap/agents')
        .send({ ...mockAgent('d'), extra_ro_binds: ['/etc'] }),
    ];
    expect(refusals.map((r) => [r.status, r.body.error])).toEqual([
      [400, 'agent_cap_exceeded'],
      [400, 'forbidden_config_keys'],
      [400, 'forbidden_config_keys'],
    ]);
    await request(s.url).post('/api/swarms/cap/agents').send(mockAgent('c')).expect(201);
    expect((await request(s.url).post('/api/swarms/cap/agents').send(mockAgent('e'))).body.error).toBe('agent_cap_exceeded');
    const after = (await request(s.url).get('/api/swarms/cap')).body;
    expect(after.agents.map((a: { name: string }) => a.name).sort()).toEqual(['a', 'b', 'c']);
    expect((await request(s.url).get('/api/swarms/cap/overlay')).body.events).toHaveLength(before.overlay.events.length + 1);
    expect(before.detail.agent_count).toBe(2);
  });

  it('a hostile receipt (symlinked done.json) → needs_attention, task 409, resume recovers', async () => {
    await request(s.url)
      .post('/api/swarms')
      .send({
        config: { name: 'hostile', agents: [{ name: 'a', backend: { type: 'mock', opts: { replies: ['x'], delay_ms: 86_400_000 } } }] },
      })
      .expect(201);
    await idle('hostile', 'a');
    await request(s.url).post('/api/swarms/hostile/agents/a/task').send({ task: 'one' }).expect(200);
    const started = await waitFor(async () => (await events('hostile')).find((e) => e.event_type === 'turn_started'), 'turn start');
    const turnId = String((started.metadata as Record<string, unknown>)['turn']);
    const dir = path.join(s.home, 'workspaces', 'hostile', 'a', '.genswarms', 'turns', turnId);
    await waitFor(async () => fs.existsSync(dir), 'turn dir');
    fs.writeFileSync(path.join(s.home, 'secret.json'), JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
    fs.symlinkSync(path.join(s.home, 'secret.json'), path.join(dir, 'done.json'));
    await waitFor(
      async () => (await request(s.url).get('/api/swarms/hostile/agents/a')).body.state === 'needs_attention',
      'needs attention',
    );
    const refused = await request(s.url).post('/api/swarms/hostile/agents/a/task').send({ task: 'two' });
    expect([refused.status, refused.body.error, refused.body.reason]).toEqual([409, 'needs_attention', 'receipt_symlink']);
    expect((await request(s.url).post('/api/swarms/hostile/agents/a/resume')).body).toEqual({
      status: 'resumed',
      agent: 'a',
      state: 'idle',
    });
    expect((await request(s.url).post('/api/swarms/hostile/agents/a/resume')).status).toBe(409);
    expect((await request(s.url).post('/api/swarms/hostile/agents/a/task').send({ task: 'three' })).body).toMatchObject({ status: 'sent' });
  });

  it('50 tasks sent concurrently to 10 agents → exactly 50 turns completed', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `w${i}`);
    const big = await startEngineServer();
    try {
      await request(big.url)
        .post('/api/swarms')
        .send({ config: { name: 'many', agents: names.map((n) => mockAgent(n)) } })
        .expect(201);
      for (const n of names)
        await waitFor(async () => (await request(big.url).get(`/api/swarms/many/agents/${n}`)).body.state === 'idle', 'idle');
      const sent = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(big.url)
            .post(`/api/swarms/many/agents/${names[i % 10]}/task`)
            .send({ task: `t${i}` }),
        ),
      );
      expect(sent.every((r) => r.status === 200)).toBe(true);
      const completed = async (): Promise<number> =>
        (await request(big.url).get('/api/swarms/many/events?event_type=turn_completed&limit=1000')).body.count;
      await waitFor(async () => (await completed()) >= 50, '50 turns');
      let total = 0;
      for (const n of names) {
        const turns = (await request(big.url).get(`/api/swarms/many/agents/${n}/turns?limit=500`)).body.turns as Array<{
          status: string;
          item_id: string;
        }>;
        expect(turns.every((t) => t.status === 'completed')).toBe(true);
        expect(new Set(turns.map((t) => t.item_id)).size).toBe(turns.length);
        total += turns.length;
      }
      expect(total).toBe(50);
      expect(await completed()).toBe(50);
    } finally {
      await big.close();
    }
  });
});
