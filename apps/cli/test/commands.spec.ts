import { cli } from './support';
import type { FixtureServer, RecordedRequest } from './fixture-server';
import { startFixtureServer } from './fixture-server';

/** Default answers, shaped as docs/rest-api.md says. */
function okRouter(req: RecordedRequest): { status: number; body: unknown } {
  const path = req.url.split('?')[0] ?? '';
  if (req.method === 'DELETE' && /^\/api\/swarms\/[^/]+$/.test(path))
    return { status: 200, body: { status: req.url.includes('purge=true') ? 'purged' : 'stopped', swarm_name: 'demo' } };
  if (path.endsWith('/task')) return { status: 200, body: { status: 'sent', agent: 'planner', id: 'item-1', queued: 1 } };
  if (path.endsWith('/scale')) return { status: 200, body: { status: 'ok', result: { added: ['w-1', 'w-2'], removed: [], failed: [] } } };
  if (path.endsWith('/turns'))
    return {
      status: 200,
      body: {
        turns: [
          {
            id: 't1',
            item_id: 'i1',
            from: '_operator',
            status: 'completed',
            started_at: '2025-01-01T00:00:00.000Z',
            completed_at: null,
            reply_preview: 'hi\u001b[31m there',
          },
        ],
      },
    };
  if (path.endsWith('/overlay') && req.method === 'GET')
    return { status: 200, body: { swarm: 'demo', events: [{ seq: 1, op: 'add_agent', payload: { name: 'x' }, timestamp: 't' }] } };
  if (path.endsWith('/logs')) return { status: 200, body: { logs: [{ timestamp: 't', stream: 'stderr', line: 'turn ok' }] } };
  if (path.startsWith('/api/events') || path.endsWith('/events'))
    return {
      status: 200,
      body: {
        events: [
          { id: 2, timestamp: 't2', level: 'info', swarm: 'demo', agent: 'a', event_type: 'turn_completed', message: 'second' },
          { id: 1, timestamp: 't1', level: 'info', swarm: 'demo', agent: 'a', event_type: 'turn_started', message: 'first' },
        ],
        count: 2,
      },
    };
  return { status: 200, body: { status: 'ok' } };
}

describe('commands map their arguments to one docs/rest-api.md request', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(okRouter);
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.setRouter(okRouter);
  });

  test.each<[string[], string, string, unknown]>([
    [['stop', 'demo'], 'DELETE', '/api/swarms/demo', undefined],
    [['stop', 'demo', '--purge'], 'DELETE', '/api/swarms/demo?purge=true', undefined],
    [['restart', 'demo'], 'POST', '/api/swarms/demo/restart', undefined],
    [['restart', 'demo', '--delete'], 'POST', '/api/swarms/demo/restart?delete=true', undefined],
    [['restart', 'demo', 'planner'], 'POST', '/api/swarms/demo/agents/planner/restart', undefined],
    [['resume', 'demo', 'planner'], 'POST', '/api/swarms/demo/agents/planner/resume', undefined],
    [['turns', 'demo', 'planner'], 'GET', '/api/swarms/demo/agents/planner/turns', undefined],
    [['turns', 'demo', 'planner', '--limit', '5'], 'GET', '/api/swarms/demo/agents/planner/turns?limit=5', undefined],
    [['task', 'demo', 'planner', 'plan', 'the', 'work'], 'POST', '/api/swarms/demo/agents/planner/task', { task: 'plan the work' }],
    [['task', 'demo', 'planner', '--', '-rf; $(x) `y`'], 'POST', '/api/swarms/demo/agents/planner/task', { task: '-rf; $(x) `y`' }],
    [
      ['msg', 'demo', 'planner', 'worker-a', 'do', 'A'],
      'POST',
      '/api/swarms/demo/message',
      { from: 'planner', to: 'worker-a', content: 'do A' },
    ],
    [['logs', 'demo', 'planner'], 'GET', '/api/swarms/demo/agents/planner/logs', undefined],
    [['logs', 'demo'], 'GET', '/api/swarms/demo/events', undefined],
    [['events'], 'GET', '/api/events', undefined],
    [
      [
        'events',
        '-s',
        'demo',
        '-a',
        'planner',
        '--errors',
        '--category',
        'agent',
        '--type',
        'turn_failed',
        '--minutes',
        '5',
        '--limit',
        '10',
      ],
      'GET',
      '/api/events?swarm=demo&agent=planner&level=error&category=agent&event_type=turn_failed&minutes=5&limit=10',
      undefined,
    ],
    [['events', '--level', 'warning'], 'GET', '/api/events?level=warning', undefined],
    [['scale', 'demo', 'w', '2'], 'POST', '/api/swarms/demo/agents/w/scale', { count: 2 }],
    [['scale', 'demo', 'w', '0'], 'POST', '/api/swarms/demo/agents/w/scale', { count: 0 }],
    [['overlay', 'demo'], 'GET', '/api/swarms/demo/overlay', undefined],
    [['overlay', 'clear', 'demo'], 'DELETE', '/api/swarms/demo/overlay', undefined],
    [['snapshot', 'demo'], 'POST', '/api/swarms/demo/snapshot', undefined],
    [['snapshot', 'demo', '--yaml'], 'POST', '/api/swarms/demo/snapshot?format=yaml', undefined],
    [['status', 'a/../b'], 'GET', '/api/swarms/a%2F..%2Fb', undefined],
  ])('%j → %s %s', async (argv, method, url, body) => {
    const r = await cli(argv, { GENSWARMS_URL: server.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method, url });
    expect(server.requests[0]?.body).toEqual(body);
    if (body !== undefined) expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('task - reads the text from stdin (one trailing newline dropped)', async () => {
    const r = await cli(['task', 'demo', 'planner', '-'], { GENSWARMS_URL: server.url }, { stdin: 'line one\nline two\n' });
    expect(r.code).toBe(0);
    expect(server.requests[0]?.body).toEqual({ task: 'line one\nline two' });
    expect(r.stdout).toBe('sent task item-1 to demo/planner (queued 1)\n');
  });

  it('msg - reads stdin too', async () => {
    const r = await cli(['msg', 'demo', 'a', 'b', '-'], { GENSWARMS_URL: server.url }, { stdin: 'from stdin' });
    expect(r.code).toBe(0);
    expect(server.requests[0]?.body).toEqual({ from: 'a', to: 'b', content: 'from stdin' });
  });

  test.each<[string[], string | undefined]>([
    [['task', 'demo', 'planner', '-'], ''],
    [['task', 'demo', 'planner', '-'], '\n'],
    [['task', 'demo', 'planner', ' '], undefined],
    [['task', 'demo', 'planner'], undefined],
    [['msg', 'demo', 'a', 'b'], undefined],
  ])('%j with stdin %j → exit 2, no request', async (argv, stdin) => {
    const r = await cli(argv, { GENSWARMS_URL: server.url }, stdin === undefined ? {} : { stdin });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^genswarms: usage: /);
    expect(server.requests).toHaveLength(0);
  });

  test.each([['-1'], ['1.5'], ['x'], [''], ['1e3'], ['+3'], [' 2'], ['0x10'], ['100001'], ['99999999999999999999']])(
    'scale count %j → exit 2, no request',
    async (count) => {
      const r = await cli(['scale', 'demo', 'w', count], { GENSWARMS_URL: server.url });
      expect(r.code).toBe(2);
      expect(server.requests).toHaveLength(0);
    },
  );

  test.each<[string[]]>([
    [['events', '--level', 'fatal']],
    [['events', '--errors', '--level', 'info']],
    [['events', '--category', 'nope']],
    [['events', '--type', 'Bad-Type']],
    [['events', '--minutes', '0']],
    [['events', '--limit', '1001']],
    [['events', '--limit', 'ten']],
    [['turns', 'demo', 'a', '--limit', '501']],
    [['restart', 'demo', 'planner', '--delete']],
    [['attach', 'demo']],
  ])('%j is a usage error (exit 2) before any request', async (argv) => {
    const r = await cli(argv, { GENSWARMS_URL: server.url });
    expect(r.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  test.each<[string[]]>([
    [['turns', 'demo', 'planner']],
    [['overlay', 'demo']],
    [['logs', 'demo', 'planner']],
    [['events']],
    [['stop', 'demo']],
    [['task', 'demo', 'p', 'x']],
    [['scale', 'demo', 'w', '2']],
  ])('%j --json prints the server body unchanged', async (argv) => {
    const r = await cli([...argv, '--json'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(okRouter(server.requests[0] as RecordedRequest).body)}\n`);
  });

  it('prints human lines; agent text cannot inject terminal escapes', async () => {
    const turns = await cli(['turns', 'demo', 'planner'], { GENSWARMS_URL: server.url });
    expect(turns.stdout).toBe('2025-01-01T00:00:00.000Z  t1  completed  from=_operator  hi?[31m there\n');
    const events = await cli(['events'], { GENSWARMS_URL: server.url });
    expect(
      events.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('  ').pop()),
    ).toEqual(['turn_started: first', 'turn_completed: second']);
    const scale = await cli(['scale', 'demo', 'w', '2'], { GENSWARMS_URL: server.url });
    expect(scale.stdout).toBe('scaled demo/w to 2: added w-1,w-2 removed -\n');
  });

  test.each<[number, unknown, number, string]>([
    [404, { error: 'agent_not_found', message: 'No such agent' }, 1, 'genswarms: agent_not_found: No such agent\n'],
    [
      409,
      { error: 'agent_not_ready', message: 'Agent is starting', state: 'starting' },
      1,
      'genswarms: agent_not_ready: Agent is starting\n  state: starting\n',
    ],
    [400, { error: 'inbox_full', message: 'Inbox is full', limit: 1000 }, 1, 'genswarms: inbox_full: Inbox is full\n  limit: 1000\n'],
    [401, { error: 'token_required', message: 'API token required' }, 4, 'genswarms: token_required: API token required\n'],
    [401, { error: 'unauthorized', message: 'Invalid or missing API token' }, 4, 'genswarms: unauthorized: Invalid or missing API token\n'],
    [
      500,
      { error: 'internal_error', message: 'Internal error', request_id: 'r' },
      1,
      'genswarms: internal_error: Internal error\n  request_id: r\n',
    ],
    [502, 'not json', 1, 'genswarms: http_502: server answered 502\n'],
  ])('task answered %i %j → exit %i with the error line and one line per detail field', async (status, body, code, line) => {
    server.setRouter(() => ({ status, body }));
    const r = await cli(['task', 'demo', 'planner', 'x'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(code);
    expect(r.stderr).toBe(line);
    expect(r.stdout).toBe('');
  });

  it('scale reports per-instance failures and exits 1', async () => {
    server.setRouter(() => ({
      status: 200,
      body: { status: 'ok', result: { added: ['w-1'], removed: [], failed: [{ name: 'w-2', reason: 'egress_unavailable' }] } },
    }));
    const r = await cli(['scale', 'demo', 'w', '2'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed w-2: egress_unavailable');
  });

  it('sends the token as Bearer on every command when set, and never prints it', async () => {
    const token = 'tok-commands-123';
    for (const argv of [['stop', 'demo'], ['task', 'demo', 'p', 'x'], ['events'], ['overlay', 'demo'], ['snapshot', 'demo']]) {
      const r = await cli(argv, { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: token });
      expect(r.stdout + r.stderr).not.toContain(token);
    }
    expect(server.requests.map((q) => q.headers.authorization)).toEqual(Array(5).fill(`Bearer ${token}`));
  });

  it('sends no Authorization header when the token is unset', async () => {
    await cli(['stop', 'demo'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: '' });
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });
});
