/**
 * `genswarms usage [<swarm>]`: one GET per swarm, a table of LLM calls and tokens per agent with each swarm's
 * total, `--json` as one object; names from the server are printed safely (no control characters reach the TTY).
 */
import { cli } from './support';
import type { FixtureServer, RecordedRequest } from './fixture-server';
import { startFixtureServer } from './fixture-server';

const u = (requests: number, refused: number, prompt: number, completion: number): Record<string, number> => ({
  requests,
  refused,
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

function detail(name: string, agents: Array<[string, Record<string, number>]>, total: Record<string, number>): unknown {
  return {
    name,
    status: 'running',
    started_at: null,
    agent_count: agents.length,
    object_count: 0,
    agents: agents.map(([a, llm_usage]) => ({ name: a, llm_usage })),
    objects: [],
    topology: [],
    llm_usage: total,
  };
}

function router(req: RecordedRequest): { status: number; body: unknown } {
  const path = req.url.split('?')[0] ?? '';
  if (path === '/api/swarms') return { status: 200, body: { swarms: [{ name: 'demo' }, { name: 'ops' }] } };
  if (path === '/api/swarms/demo')
    return {
      status: 200,
      body: detail(
        'demo',
        [
          ['writer', u(3, 2, 30, 15)],
          ['critic', u(1, 0, 10, 5)],
        ],
        u(4, 2, 40, 20),
      ),
    };
  if (path === '/api/swarms/ops') return { status: 200, body: detail('ops', [['x\u001b[31mred', u(0, 0, 0, 0)]], u(0, 0, 0, 0)) };
  return { status: 404, body: { error: 'swarm_not_found', message: 'No such swarm.' } };
}

describe('genswarms usage', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(router);
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('prints one swarm: a row per agent and the total', async () => {
    const r = await cli(['usage', 'demo'], { GENSWARMS_URL: server.url });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')).toEqual([
      'AGENT    REQUESTS  REFUSED  PROMPT  COMPLETION  TOTAL',
      'writer          3        2      30          15     45',
      'critic          1        0      10           5     15',
      '(total)         4        2      40          20     60',
      '',
    ]);
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /api/swarms/demo']);
  });

  it('prints every swarm with a SWARM column, names made safe', async () => {
    const r = await cli(['usage'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SWARM +AGENT +REQUESTS/);
    expect(r.stdout).toMatch(/^ops +x\?\[31mred +0/m);
    expect(r.stdout).not.toContain('\u001b');
    expect(server.requests.map((q) => q.url)).toEqual(['/api/swarms', '/api/swarms/demo', '/api/swarms/ops']);
  });

  it('answers --json as one object', async () => {
    const r = await cli(['usage', 'demo', '--json'], { GENSWARMS_URL: server.url });
    expect(JSON.parse(r.stdout)).toEqual({
      swarms: [
        {
          swarm: 'demo',
          llm_usage: u(4, 2, 40, 20),
          agents: [
            { name: 'writer', llm_usage: u(3, 2, 30, 15) },
            { name: 'critic', llm_usage: u(1, 0, 10, 5) },
          ],
        },
      ],
    });
  });

  it('reports an unknown swarm as the server does (exit 1)', async () => {
    const r = await cli(['usage', 'nope'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^genswarms: swarm_not_found: /);
  });
});
