import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { cli, cliLive, closedPort, tempDir } from './support';

// The CLI against the real apps/server process (built here; the CLI never imports the server app).
const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json')]);
if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);

const SWARM_YAML = `name: rs
agents:
  - { name: writer, backend: { type: mock, opts: { replies: ["draft: {{content}}"] } }, workspace: ws/writer }
  - { name: critic, backend: { type: mock, opts: { replies: ["fine"] } } }
topology: [[writer, critic], { from: critic, to: writer }]
`;

describe('the CLI against the real server', () => {
  const dir = tempDir('gs-cli-real-srv-');
  const TOKEN = 'real-server-cli-token';
  let env: Record<string, string>;

  beforeAll(async () => {
    const port = await closedPort();
    env = {
      GENSWARMS_HOME: join(dir.path, 'home'),
      GENSWARMS_WORKSPACE_ROOTS: dir.path, // writer's workspace is ws/writer beside the config file
      GENSWARMS_API_TOKEN: TOKEN,
      GENSWARMS_URL: `http://127.0.0.1:${port}`,
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    };
    writeFileSync(join(dir.path, 'swarm.yaml'), SWARM_YAML);
    const up = await cli(['up', '--port', String(port)], env, { cwd: dir.path, serverMain: SERVER_MAIN });
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
  });
  afterAll(async () => {
    await cli(['down'], env, { cwd: dir.path });
    dir.cleanup();
  });

  it('start reads the local YAML, waits for the agents and the swarm shows as running', async () => {
    const r = await cli(['start', 'swarm.yaml'], env, { cwd: dir.path });
    expect(r.stderr).toContain('rs: agents ready 2/2');
    expect(r.code).toBe(0);
    expect((await cli(['status'], env)).stdout).toMatch(/^rs +running +2 +0 +idle 2$/m);
  });

  it('a task becomes a completed turn, visible through turns and events', async () => {
    const sent = await cli(['task', 'rs', 'writer', 'write', 'a', 'haiku'], env);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^sent task \S+ to rs\/writer/);
    const run = cliLive(['events', '-s', 'rs', '-a', 'writer', '--type', 'turn_completed', '-f'], env);
    await run.waitForStdout(/turn_completed/);
    run.interrupt();
    expect((await run.done).code).toBe(0);
    const turns = JSON.parse((await cli(['turns', 'rs', 'writer', '--json'], env)).stdout) as {
      turns: Array<{ status: string; from: string }>;
    };
    expect(turns.turns[0]).toMatchObject({ status: 'completed', from: '_operator' });
  });

  it('logs -f streams log entries over the authenticated socket', async () => {
    const run = cliLive(['logs', 'rs', '-f', '--json'], env);
    await run.waitForStdout(/"event_type"/);
    run.interrupt();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('msg, overlay, snapshot --yaml answer; a wrong token exits 4; a bad scale count exits 2', async () => {
    expect((await cli(['msg', 'rs', 'writer', 'critic', 'hello'], env)).code).toBe(0);
    expect(JSON.parse((await cli(['overlay', 'rs', '--json'], env)).stdout)).toMatchObject({ swarm: 'rs' });
    const snap = await cli(['snapshot', 'rs', '--yaml'], env);
    expect(snap.code).toBe(0);
    expect(snap.stdout).toMatch(/^name: rs$/m);
    expect((await cli(['status'], { ...env, GENSWARMS_API_TOKEN: 'wrong' })).code).toBe(4);
    expect((await cli(['scale', 'rs', 'writer', '1.5'], env)).code).toBe(2);
  });

  it('stop --purge removes the swarm; then it is unknown (exit 1)', async () => {
    const stop = await cli(['stop', 'rs', '--purge'], env);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe('rs: purged\n');
    const gone = await cli(['status', 'rs'], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^genswarms: swarm_not_found: /);
  });
});
