import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { ptyRun, visible } from './pty-run';
import { cli, cliLive, closedPort, tempDir } from './support';

// The operator view (status, watch, start progress and failures, task --wait) against the real server, piped
// (in-process, plain text) and on a real pseudo-terminal (the built bin: colour, width, in-place updates).
const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const CLI_BIN = join(ROOT, 'apps', 'cli', 'bin', 'genswarms.js');
const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json'), join(ROOT, 'apps', 'cli', 'tsconfig.lib.json')]);
if (built.kind === 'failed') throw new Error(`the build failed: ${built.output.slice(0, 2000)}`);

const SLOW = 'slow-agent-with-a-rather-long-name';
const OV_YAML = `name: ov
agents:
  - { name: fast, backend: { type: mock, opts: { replies: ["ok: {{content}}"] } } }
  - { name: ${SLOW}, backend: { type: mock, opts: { replies: ["slow done: {{content}}"], delay_ms: 2500 } } }
topology: [[fast, ${SLOW}]]
`;
const BAD_YAML = `name: bad
agents:
  - { name: good, backend: mock }
  - { name: broken, backend: { type: mock, opts: { fail_start: true } } }
`;
// eslint-disable-next-line no-control-regex -- the assertion is that no escape sequence is printed
const ESC_RE = /\u001b/;

describe('the operator view against the real server', () => {
  const dir = tempDir('gs-cli-operator-view-');
  let env: Record<string, string>;

  beforeAll(async () => {
    const port = await closedPort();
    env = {
      GENSWARMS_HOME: join(dir.path, 'home'),
      GENSWARMS_API_TOKEN: 'operator-view-token',
      GENSWARMS_URL: `http://127.0.0.1:${port}`,
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    };
    writeFileSync(join(dir.path, 'ov.yaml'), OV_YAML);
    writeFileSync(join(dir.path, 'bad.yaml'), BAD_YAML);
    const up = await cli(['up', '--port', String(port)], env, { cwd: dir.path, serverMain: SERVER_MAIN });
    expect([up.code, up.stderr]).toEqual([0, '']);
    const start = await cli(['start', 'ov.yaml'], env, { cwd: dir.path });
    expect([start.code, start.stderr]).toEqual([0, 'ov: agents ready 2/2\n']);
  });
  afterAll(async () => {
    await cli(['down'], env, { cwd: dir.path });
    dir.cleanup();
  });

  it('status (piped) lists swarms with agents by state, plain', async () => {
    const r = await cli(['status'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SWARM +STATUS +AGENTS +OBJECTS +AGENT STATES\n/);
    expect(r.stdout).toMatch(/^ov +running +2 +0 +idle 2$/m);
    expect(r.stdout).not.toMatch(ESC_RE);
  });

  it('status <swarm> (piped) shows the current turn and its age while busy; task --wait prints the reply', async () => {
    const wait = cliLive(['task', 'ov', SLOW, '--wait', 'the', 'work'], env);
    await wait.waitForStdout(/waiting for its turn/);
    let busy = '';
    for (let i = 0; i < 100 && !/ busy /.test(busy); i += 1) busy = (await cli(['status', 'ov'], env)).stdout;
    expect(busy).toMatch(/^ov: running, 2 agents \((idle 1, busy 1)\), 0 objects\n/);
    expect(busy).toMatch(/^AGENT +STATE +BACKEND +NETWORK +TURN +INBOX +ATTENTION +ACTIVE$/m);
    expect(busy).toMatch(new RegExp(`^${SLOW} +busy +mock/genswarms-agent +open +\\S{8}… \\d+s +0 +- +\\d+s ago$`, 'm'));
    expect(busy).toMatch(/^fast +idle +mock\/genswarms-agent +open +- +0 +- +\d+s ago$/m);
    expect(busy).not.toMatch(ESC_RE);
    const done = await wait.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^turn \S+ completed; reply:\nslow done: the work\n$/m);
  });

  it('watch (piped) prints the table again from pushes when an agent changes, until interrupted (exit 0)', async () => {
    const watch = cliLive(['watch', 'ov'], env);
    await watch.waitForStdout(new RegExp(`^${SLOW} +idle`, 'm'));
    expect((await cli(['task', 'ov', SLOW, 'ping'], env)).code).toBe(0);
    await watch.waitForStdout(new RegExp(`^${SLOW} +busy[\\s\\S]*^${SLOW} +idle`, 'm'));
    watch.interrupt();
    const r = await watch.done;
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^--- \d{4}-\d\d-\d\dT/gm)?.length).toBeGreaterThanOrEqual(3);
    expect(r.stdout).not.toMatch(ESC_RE);
  });

  it('a start with a failing agent waits for all, then exits 1 naming the agent with the server code and sentence', async () => {
    const r = await cli(['start', 'bad.yaml'], env, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^bad: agents ready 1\/2, 1 failed$/m);
    expect(r.stderr).toMatch(/^genswarms: agent_failed: 1 agent\(s\) of bad did not start; see genswarms status bad$/m);
    expect(r.stderr).toMatch(/^ {2}broken: start_failed: \S.*$/m);
    const status = await cli(['status'], env);
    expect(status.stdout).toMatch(/^bad +running +2 +0 +idle 1, failed 1$/m);
  });

  it('on a terminal: status is coloured and cut to the width; watch redraws in place and Ctrl-C exits 0', async () => {
    const cols = 60;
    const status = await ptyRun([CLI_BIN, 'status', 'ov'], env, cols).done;
    expect(status.code).toBe(0);
    expect(status.output).toContain('\u001b[32midle\u001b[0m');
    const lines = visible(status.output)
      .split('\n')
      .filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(cols);
    expect(lines.some((l) => /^slow-\S*… /.test(l))).toBe(true);

    const watch = ptyRun([CLI_BIN, 'watch', 'ov'], env, 100);
    await watch.waitFor(/watching ov, live from the server; Ctrl-C to quit/);
    expect(watch.output()).toContain('\u001b[H\u001b[2J');
    watch.interrupt();
    expect((await watch.done).code).toBe(0);
  });

  it('on a terminal: start updates its progress line in place', async () => {
    writeFileSync(join(dir.path, 'tty.yaml'), 'name: tty\nagents:\n  - { name: a, backend: mock }\n  - { name: b, backend: mock }\n');
    const r = await ptyRun([CLI_BIN, 'start', join(dir.path, 'tty.yaml')], env, 80).done;
    expect(r.code).toBe(0);
    expect(r.output).toContain('\r\u001b[2Ktty: agents ready 2/2');
    expect(visible(r.output)).toMatch(/started tty: 2\/2 agents ready/);
  });
  it('watch exits 3 (disconnected) when the server goes away (runs last: it stops the server)', async () => {
    const watch = cliLive(['watch', 'ov'], env);
    await watch.waitForStdout(/^fast +idle/m);
    expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    const r = await watch.done;
    expect([r.code, r.stderr]).toEqual([3, expect.stringMatching(/^genswarms: disconnected: lost the connection to the server/)]);
  });
});
