import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

// Longer than the 100-character preview; JSON- and markup-looking so an interpreted reply would show.
const LONG = `${'0123456789'.repeat(15)} {"not":"parsed"} <b>{{content}}</b> end`;

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer({ maxAgentsPerSwarm: 4 });
  for (const name of ['sw', 'sw2']) {
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name, agents: [mockAgent('a', [LONG]), mockAgent('b')], topology: [] } })
      .expect(201);
  }
});
afterAll(async () => {
  await s.close();
});

async function completedTurn(swarm: string, agent: string, task: string): Promise<{ id: string; reply_preview: string }> {
  await waitFor(async () => (await request(s.url).get(`/api/swarms/${swarm}/agents/${agent}`)).body.state === 'idle', `${agent} idle`);
  const sent = await request(s.url).post(`/api/swarms/${swarm}/agents/${agent}/task`).send({ task }).expect(200);
  return waitFor(async () => {
    const turns = (await request(s.url).get(`/api/swarms/${swarm}/agents/${agent}/turns`)).body.turns as Array<Record<string, string>>;
    const t = turns.find((x) => x['item_id'] === sent.body.id);
    return t !== undefined && t['status'] === 'completed' ? (t as { id: string; reply_preview: string }) : undefined;
  }, `${agent} turn completed`);
}

describe('GET /api/swarms/:s/agents/:a/turns/:t', () => {
  let turn: { id: string; reply_preview: string };
  beforeAll(async () => {
    turn = await completedTurn('sw', 'a', 'hi');
    await completedTurn('sw', 'b', 'other');
  });

  it('answers the turn as in the list plus the whole reply, as a JSON string', async () => {
    const res = await request(s.url).get(`/api/swarms/sw/agents/a/turns/${turn.id}`);
    expect(res.status).toBe(200);
    const listed = (await request(s.url).get('/api/swarms/sw/agents/a/turns')).body.turns[0];
    const expected = LONG.replace('{{content}}', 'hi');
    expect(expected.length).toBeGreaterThan(100);
    expect(res.body).toEqual({ ...listed, reply: expect.any(String) });
    expect(res.body.reply.trim()).toBe(expected);
    expect(res.body.reply_preview.length).toBeLessThan(expected.length);
  });

  test.each<[string, string, string]>([
    ['a turn of another agent', 'sw/agents/b', 'turn_not_found'],
    ['the same agent name in another swarm', 'sw2/agents/a', 'turn_not_found'],
    ['an unknown agent', 'sw/agents/zz', 'agent_not_found'],
    ['an unknown swarm', 'nope/agents/a', 'swarm_not_found'],
  ])('the turn id under %s (%s) → 404 %s', async (_label, prefix, code) => {
    const res = await request(s.url).get(`/api/swarms/${prefix}/turns/${turn.id}`);
    expect([res.status, res.body.error]).toEqual([404, code]);
  });

  // Off the turn-id grammar ^[a-z0-9_-]{1,64}$: never looked up, never echoed.
  test.each<[string, string]>([
    ['unknown', 'abcdefghijklmnopqrstuvwxyz'],
    ['dot-dot', '..'],
    ['encoded dot-dot', '%2e%2e'],
    ['encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['NUL', 'abc%00def'],
    ['overlong', 'a'.repeat(65)],
    ['upper case', 'ABC'],
    ['SQL-looking', "x'%20OR%20'1'%3D'1"],
    ['newline', 'abc%0A'],
  ])('%s turn id → 404 turn_not_found', async (label, id) => {
    const res = await request(s.url).get(`/api/swarms/sw/agents/a/turns/${id}`);
    expect([res.status, res.body.error]).toEqual([404, 'turn_not_found']);
    if (label !== 'unknown') expect(res.body).not.toHaveProperty('turn');
    expect(res.body).not.toHaveProperty('reply');
  });
});
