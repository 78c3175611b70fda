import { cli, cliLive } from './support';
import type { FixtureServer } from './fixture-server';
import { startFixtureServer } from './fixture-server';

const entry = (id: number, message: string): Record<string, unknown> => ({
  id,
  timestamp: `t${id}`,
  level: 'info',
  agent: 'planner',
  event_type: 'turn_completed',
  message,
  metadata: {},
});

describe('logs -f (socket.io log_entry stream)', () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await startFixtureServer();
  });
  afterEach(async () => server.close());

  it('joins the swarm, subscribes for the agent, prints recent logs then pushed entries until interrupted (exit 0)', async () => {
    server.setSocketScript({
      knownSwarms: ['demo'],
      recentLogs: [entry(1, 'recent one')],
      onSubscribeLogs: (s) => s.emit('log_entry', entry(2, 'pushed two')),
    });
    const run = cliLive(['logs', 'demo', 'planner', '-f'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/pushed two/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('  ').pop()),
    ).toEqual(['turn_completed: recent one', 'turn_completed: pushed two']);
    expect(server.handshakes[0]?.emitted).toEqual([
      { event: 'join', payload: { swarm: 'demo' } },
      { event: 'subscribe_logs', payload: { agent: 'planner' } },
    ]);
  });

  it('--json prints one entry per line; no agent subscribes to all', async () => {
    server.setSocketScript({ knownSwarms: ['demo'], onSubscribeLogs: (s) => s.emit('log_entry', entry(3, 'x')) });
    const run = cliLive(['logs', 'demo', '-f', '--json'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/\n/);
    run.interrupt();
    expect((await run.done).stdout).toBe(`${JSON.stringify(entry(3, 'x'))}\n`);
    expect(server.handshakes[0]?.emitted[1]).toEqual({ event: 'subscribe_logs', payload: {} });
  });

  it('puts the token in auth.token only when it is set, never in a header, never printed', async () => {
    const token = 'sock-token-42';
    server.setSocketScript({ knownSwarms: ['demo'], token, onSubscribeLogs: (s) => s.emit('log_entry', entry(1, 'ok')) });
    const run = cliLive(['logs', 'demo', '-f'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: token });
    await run.waitForStdout(/ok/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(server.handshakes[0]?.auth).toEqual({ token });
    expect(server.handshakes[0]?.authorization).toBeUndefined();
    expect(r.stdout + r.stderr).not.toContain(token);

    server.setSocketScript({ knownSwarms: ['demo'], onSubscribeLogs: (s) => s.emit('log_entry', entry(1, 'ok')) });
    const anon = cliLive(['logs', 'demo', '-f'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: '  ' });
    await anon.waitForStdout(/ok/);
    anon.interrupt();
    await anon.done;
    expect(server.handshakes[1]?.auth).toEqual({});
  });

  it('a refused handshake (connect_error unauthorized) → exit 4', async () => {
    server.setSocketScript({ knownSwarms: ['demo'], token: 'right' });
    const r = await cli(['logs', 'demo', '-f'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: 'wrong' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('genswarms: unauthorized: Invalid or missing API token\n');
  });

  it('an unknown swarm (join refused) → exit 1 with the server code', async () => {
    server.setSocketScript({ knownSwarms: [] });
    const r = await cli(['logs', 'nope', '-f'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('genswarms: swarm_not_found: No such swarm\n');
  });

  it('the server dropping the connection → exit 3', async () => {
    server.setSocketScript({ knownSwarms: ['demo'], onSubscribeLogs: (s) => s.emit('log_entry', entry(1, 'bye')) });
    const run = cliLive(['logs', 'demo', '-f'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/bye/);
    await server.close();
    const r = await run.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^genswarms: disconnected: /);
    server = await startFixtureServer(); // afterEach closes a live one
  });
});

describe('events -f (polls since_id every second)', () => {
  let server: FixtureServer;
  afterEach(async () => server.close());

  it('prints the first page oldest first, then only newer events using since_id', async () => {
    let calls = 0;
    server = await startFixtureServer((req) => {
      calls += 1;
      if (calls === 1) return { status: 200, body: { events: [entry(5, 'five'), entry(4, 'four')], count: 2 } };
      if (req.url.includes('since_id=5')) return { status: 200, body: { events: [entry(6, 'six')], count: 1 } };
      return { status: 200, body: { events: [], count: 0 } };
    });
    const run = cliLive(['events', '-f', '-s', 'demo', '--minutes', '10'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/six/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(': ').pop()),
    ).toEqual(['four', 'five', 'six']);
    expect(server.requests[0]?.url).toBe('/api/events?swarm=demo&minutes=10');
    expect(server.requests[1]?.url).toBe('/api/events?swarm=demo&since_id=5');
  });

  it('stops with the error exit code when a poll fails', async () => {
    let calls = 0;
    server = await startFixtureServer(() => {
      calls += 1;
      return calls === 1
        ? { status: 200, body: { events: [] } }
        : { status: 401, body: { error: 'unauthorized', message: 'Invalid or missing API token' } };
    });
    const r = await cli(['events', '-f'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(4);
  });
});

describe('attach to a headless agent (agent_output stream)', () => {
  let server: FixtureServer;
  afterEach(async () => server.close());

  it("streams only that agent's output, stdout and stderr apart, with control characters neutralised", async () => {
    server = await startFixtureServer(() => ({ status: 200, body: { name: 'planner', backend: 'local', state: 'idle' } }));
    server.setSocketScript({
      knownSwarms: ['demo'],
      onJoin: (s) => {
        s.emit('agent_output', { agent: 'other', stream: 'stdout', content: 'not mine\n' });
        s.emit('agent_output', { agent: 'planner', stream: 'stderr', content: 'warn\n' });
        s.emit('agent_output', { agent: 'planner', stream: 'stdout', content: 'hello \u001b]0;pwn\u0007world\n' });
      },
    });
    const run = cliLive(['attach', 'demo', 'planner'], { GENSWARMS_URL: server.url });
    await run.waitForStdout(/world/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hello ?]0;pwn?world\n');
    expect(r.stderr).toContain('warn\n');
    expect(server.requests[0]?.url).toBe('/api/swarms/demo/agents/planner');
  });

  it('--write on a headless agent is a usage error', async () => {
    server = await startFixtureServer(() => ({ status: 200, body: { name: 'planner', backend: 'bwrap', state: 'idle' } }));
    expect((await cli(['attach', 'demo', 'planner', '--write'], { GENSWARMS_URL: server.url })).code).toBe(2);
  });

  it('an unknown agent → exit 1 with agent_not_found', async () => {
    server = await startFixtureServer(() => ({ status: 404, body: { error: 'agent_not_found', message: 'No such agent' } }));
    const r = await cli(['attach', 'demo', 'ghost'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('genswarms: agent_not_found: No such agent\n');
  });
});
