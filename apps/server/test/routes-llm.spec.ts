/**
 * The metering egress's REST surface over HTTP with a real engine (mock agents: they reach no LLM, so a limit on
 * them is enforceable): PATCH of agent and swarm limits with hostile bodies as a table, the audit trail's paging
 * parameters, and llm_usage on agent and swarm status.
 */
import request from 'supertest';
import { mockAgent, startEngineServer } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer();
  await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: 'sw', agents: [mockAgent('a', ['x'], { budget: { requests: 3 } }), mockAgent('b')] } })
    .expect(201);
});
afterAll(async () => {
  await s.close();
});

const ZERO = { requests: 0, refused: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

describe('LLM budgets over REST', () => {
  it('shows llm_usage on the agent and the swarm', async () => {
    expect((await request(s.url).get('/api/swarms/sw/agents/a').expect(200)).body.llm_usage).toEqual(ZERO);
    expect((await request(s.url).get('/api/swarms/sw').expect(200)).body.llm_usage).toEqual(ZERO);
  });

  it("raises an agent's budget, records it in the overlay, and removes a rate limit with null", async () => {
    const res = await request(s.url)
      .patch('/api/swarms/sw/agents/a/budget')
      .send({ budget: { requests: 10, window: 'P1D' }, rate_limit: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'updated', swarm: 'sw', agents: ['a'], budget: { requests: 10, window: 'P1D' }, rate_limit: null });
    const overlay = (await request(s.url).get('/api/swarms/sw/overlay').expect(200)).body.events;
    expect(overlay.at(-1)).toMatchObject({
      op: 'update_config',
      payload: { target: 'a', config: { budget: { requests: 10, window: 'P1D' }, rate_limit: null } },
    });
    const snapshot = (await request(s.url).post('/api/swarms/sw/snapshot').expect(200)).body;
    expect(snapshot.agents[0]).toMatchObject({ name: 'a', budget: { requests: 10, window: 'P1D' } });
    expect(snapshot.agents[0]).not.toHaveProperty('rate_limit');
  });

  it("sets the swarm's shared limits", async () => {
    const res = await request(s.url)
      .patch('/api/swarms/sw/budget')
      .send({ rate_limit: { tokens_per_minute: 5000 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'updated', swarm: 'sw', agents: [], budget: null, rate_limit: { tokens_per_minute: 5000 } });
  });

  test.each<[string, string, unknown, number, string]>([
    ['an empty body', '/api/swarms/sw/agents/a/budget', {}, 400, 'validation_failed'],
    ['a zero budget', '/api/swarms/sw/agents/a/budget', { budget: { requests: 0 } }, 400, 'validation_failed'],
    ['a negative rate', '/api/swarms/sw/budget', { rate_limit: { requests_per_minute: -1 } }, 400, 'validation_failed'],
    ['a string count', '/api/swarms/sw/agents/a/budget', { budget: { requests: '3' } }, 400, 'validation_failed'],
    ['a fraction', '/api/swarms/sw/agents/a/budget', { budget: { tokens: 2.5 } }, 400, 'validation_failed'],
    ['a month window', '/api/swarms/sw/agents/a/budget', { budget: { requests: 1, window: 'P1M' } }, 400, 'validation_failed'],
    ['an unknown key', '/api/swarms/sw/agents/a/budget', { budget: { requests: 1 }, dollars: 5 }, 400, 'validation_failed'],
    [
      '__proto__ in the budget',
      '/api/swarms/sw/agents/a/budget',
      JSON.parse('{"budget":{"requests":1,"__proto__":{"a":1}}}'),
      400,
      'invalid_json',
    ],
    ['a list body', '/api/swarms/sw/budget', [{ budget: { requests: 1 } }], 400, 'invalid_json'],
    ['an unknown agent', '/api/swarms/sw/agents/zz/budget', { budget: { requests: 1 } }, 404, 'agent_not_found'],
    ['an off-grammar agent', '/api/swarms/sw/agents/..%2Fx/budget', { budget: { requests: 1 } }, 404, 'agent_not_found'],
    ['an unknown swarm', '/api/swarms/nope/budget', { budget: { requests: 1 } }, 404, 'swarm_not_found'],
  ])('refuses %s', async (_name, path, body, status, error) => {
    const res = await request(s.url)
      .patch(path)
      .send(body as object);
    expect([res.status, res.body.error]).toEqual([status, error]);
  });

  it('lists the audit trail, newest first, with next_before', async () => {
    expect((await request(s.url).get('/api/swarms/sw/agents/a/llm-requests').expect(200)).body).toEqual({
      requests: [],
      next_before: null,
    });
  });

  test.each<[string, string, number, string]>([
    ['limit 0', '/api/swarms/sw/agents/a/llm-requests?limit=0', 400, 'invalid_query'],
    ['limit 501', '/api/swarms/sw/agents/a/llm-requests?limit=501', 400, 'invalid_query'],
    ['a negative before', '/api/swarms/sw/agents/a/llm-requests?before=-1', 400, 'invalid_query'],
    ['a non-numeric before', '/api/swarms/sw/agents/a/llm-requests?before=1e3', 400, 'invalid_query'],
    ['a repeated before', '/api/swarms/sw/agents/a/llm-requests?before=1&before=2', 400, 'invalid_query'],
    ['an unknown agent', '/api/swarms/sw/agents/zz/llm-requests', 404, 'agent_not_found'],
    ['an unknown swarm', '/api/swarms/nope/agents/a/llm-requests', 404, 'swarm_not_found'],
  ])('refuses an audit query with %s', async (_name, path, status, error) => {
    const res = await request(s.url).get(path);
    expect([res.status, res.body.error]).toEqual([status, error]);
  });
});
