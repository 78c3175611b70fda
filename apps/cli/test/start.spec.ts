import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from './support';
import type { FixtureServer, RecordedRequest } from './fixture-server';
import { startFixtureServer } from './fixture-server';

const YAML = `name: demo
agents:
  - name: planner
    backend: local
    workspace: work/planner
    skills: [skills/notes, /abs/skill]
  - { name: worker, backend: local, workspace: /srv/abs }
topology: [[planner, worker]]
`;

/** 201 for the POST; the agents list turns ready after `readyAfter` polls (or reports `stuck`). */
function startRouter(opts: { readyAfter: number; stuck?: string }): (req: RecordedRequest) => { status: number; body: unknown } {
  let polls = 0;
  return (req) => {
    if (req.method === 'POST' && req.url === '/api/swarms') return { status: 201, body: { status: 'created', swarm_name: 'demo' } };
    // The failure lookup (GET …/events?event_type=agent_failed): an events page, as the server answers it.
    if (req.url.startsWith('/api/swarms/demo/events')) return { status: 200, body: { events: [], count: 0 } };
    polls += 1;
    const state = polls > opts.readyAfter ? 'idle' : 'starting';
    const worker = opts.stuck === undefined ? state : opts.stuck;
    return {
      status: 200,
      body: {
        agents: [
          { name: 'planner', state },
          {
            name: 'worker',
            state: worker,
            needs_attention: opts.stuck === 'needs_attention' ? { reason: 'receipt_symlink', turn: 't' } : null,
          },
        ],
      },
    };
  };
}

describe('genswarms start <config>', () => {
  const dir = tempDir('gs-cli-start-');
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    writeFileSync(join(dir.path, 'swarm.yaml'), YAML);
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('POSTs {config} with relative workspace/skills resolved against the file directory, then shows progress', async () => {
    server.setRouter(startRouter({ readyAfter: 1 }));
    const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(0);
    const post = server.requests[0];
    expect(post).toMatchObject({ method: 'POST', url: '/api/swarms' });
    expect(post?.body).toEqual({
      config: {
        name: 'demo',
        agents: [
          {
            name: 'planner',
            backend: 'local',
            workspace: join(dir.path, 'work/planner'),
            skills: [join(dir.path, 'skills/notes'), '/abs/skill'],
          },
          { name: 'worker', backend: 'local', workspace: '/srv/abs' },
        ],
        topology: [['planner', 'worker']],
      },
    });
    expect(server.requests.slice(1).every((q) => q.method === 'GET' && q.url === '/api/swarms/demo/agents')).toBe(true);
    expect(r.stderr).toBe('demo: agents ready 0/2\ndemo: agents ready 2/2\n');
    expect(r.stdout).toBe('started demo: 2/2 agents ready\n');
  });

  it('--no-wait returns after the 201; --json prints only the server body on stdout', async () => {
    server.setRouter(startRouter({ readyAfter: 0 }));
    const noWait = await cli(['start', join(dir.path, 'swarm.yaml'), '--no-wait'], { GENSWARMS_URL: server.url });
    expect(noWait).toEqual({ code: 0, stdout: 'created demo\n', stderr: '' });
    expect(server.requests).toHaveLength(1);
    const json = await cli(['start', join(dir.path, 'swarm.yaml'), '--json'], { GENSWARMS_URL: server.url });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('{"status":"created","swarm_name":"demo"}\n');
  });

  test.each([['failed'], ['needs_attention']])('an agent that ends %s → exit 1 naming it', async (stuck) => {
    server.setRouter(startRouter({ readyAfter: 0, stuck }));
    const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('genswarms: agent_failed: 1 agent(s) of demo did not start');
    expect(r.stderr).toContain(`  worker: ${stuck}`);
  });

  it('prints the server validation issues under the error line (exit 1)', async () => {
    server.setRouter(() => ({
      status: 400,
      body: {
        error: 'validation_failed',
        message: 'the swarm config does not match the schema',
        issues: [
          { path: 'agents.0.network', message: 'host is refused' },
          { code: 'duplicate_name', name: 'a' },
        ],
      },
    }));
    const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'genswarms: validation_failed: the swarm config does not match the schema\n  agents.0.network: host is refused\n  {"code":"duplicate_name","name":"a"}\n',
    );
  });

  it('names the agent before the code of a plan refusal and prints its detail fields', async () => {
    server.setRouter(() => ({
      status: 400,
      body: { error: 'unsupported_network', message: 'network isolated is refused for local', agent: 'planner', network: 'isolated' },
    }));
    const r = await cli(['start', 'swarm.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.stderr).toBe('genswarms: planner: unsupported_network: network isolated is refused for local\n  network: isolated\n');
  });

  test.each<[string, string | undefined, string]>([
    ['swarm.txt', 'name: x', 'unsupported_format'],
    ['missing.json', undefined, 'config_unreadable'],
    ['broken.json', '{"name": ', 'config_parse_error'],
    ['broken.yaml', 'name: [unclosed', 'config_parse_error'],
    ['.', undefined, 'unsupported_format'],
  ])('%s (content %j) → exit 1 with %s and no request', async (file, content, code) => {
    if (content !== undefined) writeFileSync(join(dir.path, file), content);
    const r = await cli(['start', file], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^genswarms: ${code}: `));
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a file over 1 MiB without sending it', async () => {
    writeFileSync(join(dir.path, 'big.json'), `{"name":"x","pad":"${'a'.repeat(1048576)}"}`);
    const r = await cli(['start', 'big.json'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^genswarms: config_too_large: /);
    expect(server.requests).toHaveLength(0);
  });
});
