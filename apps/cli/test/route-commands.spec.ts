import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { cli, tempDir, upRealServer } from './support';

// Every REST route that had no command now has one (agents, objects, topology, messages, history, pause/resume,
// skills); each answers over the real server in human form and with --json (the server's body unchanged).
const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json')]);
if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);

describe('the commands for every REST route, against the real server', () => {
  const dir = tempDir('gs-cli-routes-');
  let env: Record<string, string>;
  const run = (argv: string[]): ReturnType<typeof cli> => cli(argv, env, { cwd: dir.path });
  const json = async (argv: string[]): Promise<Record<string, unknown>> => {
    const r = await run([...argv, '--json']);
    expect([argv, r.code, r.stderr]).toEqual([argv, 0, '']);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    writeFileSync(
      join(dir.path, 'rt.yaml'),
      'name: rt\nagents:\n  - { name: a, backend: mock }\n  - { name: b, backend: mock }\n' +
        '  - { name: late, backend: { type: mock, opts: { delay_ms: 5000 } }, turn_timeout_ms: 300 }\ntopology: [[a, b]]\n',
    );
    writeFileSync(join(dir.path, 'c.yaml'), 'name: c\nbackend: { type: mock, opts: { replies: ["c says {{content}}"] } }\n');
    writeFileSync(join(dir.path, 'count.json'), JSON.stringify({ name: 'count', handler: 'counter', config: { step: 1 } }));
    writeFileSync(join(dir.path, 'step.yaml'), 'step: 5\n');
    env = await upRealServer(dir.path, SERVER_MAIN);
    expect((await run(['start', 'rt.yaml'])).code).toBe(0);
  });
  afterAll(async () => {
    await run(['down']);
    dir.cleanup();
  });

  it('topology show / patch', async () => {
    expect((await run(['topology', 'show', 'rt'])).stdout).toBe('a -> b\n');
    expect((await run(['topology', 'patch', 'rt', '--add', 'b:a'])).stdout).toBe('rt: 1 edge(s) added, 0 removed\n');
    expect(await json(['topology', 'show', 'rt'])).toEqual({
      topology: [
        { from: 'a', targets: ['b'] },
        { from: 'b', targets: ['a'] },
      ],
    });
    expect(await json(['topology', 'patch', 'rt', '--remove', 'b:a'])).toMatchObject({ status: 'ok', removed: 1 });
    const bad = await run(['topology', 'patch', 'rt', '--add', 'a-b']);
    expect([bad.code, bad.stderr]).toEqual([2, 'genswarms: usage: an edge is <from>:<to>, got "a-b"\n']);
    const unknown = await run(['topology', 'patch', 'rt', '--add', 'a:zz']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^genswarms: unknown_edge_endpoint: /)]);
  });

  it('agents add / list / show / remove', async () => {
    expect((await run(['agents', 'add', 'rt', 'c.yaml', '--incoming', 'a'])).stdout).toBe('added rt/c\n');
    const list = (await run(['agents', 'list', 'rt'])).stdout;
    expect(list).toMatch(/^AGENT +STATE +BACKEND/);
    expect(list).toMatch(/^c +(starting|idle) +mock\/genswarms-agent/m);
    expect(await json(['agents', 'show', 'rt', 'c'])).toMatchObject({ name: 'c', swarm: 'rt', backend: 'mock' });
    expect(await json(['agents', 'remove', 'rt', 'c'])).toEqual({ status: 'removed', name: 'c' });
    const gone = await run(['agents', 'show', 'rt', 'c']);
    expect([gone.code, gone.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^genswarms: (c: )?agent_not_found: /)]);
  });

  it('objects add / list / show / patch / remove', async () => {
    expect((await run(['objects', 'add', 'rt', 'count.json'])).stdout).toBe('added rt/count\n');
    expect((await run(['objects', 'list', 'rt'])).stdout).toMatch(/^count {2}counter {2}\w+\n$/);
    expect(await json(['objects', 'show', 'rt', 'count'])).toMatchObject({ object: { name: 'count', handler: 'counter' } });
    expect((await run(['objects', 'patch', 'rt', 'count', 'step.yaml'])).stdout).toBe('updated rt/count: step\n');
    expect(await json(['objects', 'remove', 'rt', 'count'])).toEqual({ status: 'removed', name: 'count' });
  });

  it('messages and history after a routed message and a task', async () => {
    expect((await run(['msg', 'rt', 'a', 'b', 'hello b'])).code).toBe(0);
    expect((await run(['task', 'rt', 'a', '--wait', 'hi'])).code).toBe(0);
    expect(((await json(['messages', 'rt'])).messages as unknown[]).length).toBeGreaterThan(0);
    expect((await run(['messages', 'rt', '--limit', '5'])).stdout).toMatch(/ a -> b {2}\w+ {2}hello b$/m);
    expect((await run(['history', 'rt', 'a'])).stdout).toMatch(/ received {2}task from _operator \(completed\) {2}hi$/m);
    expect(((await json(['history', 'rt', 'a', '--limit', '1'])).history as unknown[]).length).toBe(1);
    expect((await run(['messages', 'rt', '--limit', '0'])).code).toBe(2);
  });

  it('pause / resume <swarm> name the agents they leave untouched; resume <swarm> <agent> still resumes an agent', async () => {
    expect((await run(['pause', 'rt'])).stdout).toBe('rt: paused (0 container(s)); not docker-backed, untouched: a, b, late\n');
    expect(await json(['resume', 'rt'])).toMatchObject({ status: 'resumed', containers: 0 });
    const notStuck = await run(['resume', 'rt', 'a']);
    expect([notStuck.code, notStuck.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^genswarms: (a: )?invalid_state: /)]);
  });

  it('skills lists the catalogue (empty here) and --json is the body', async () => {
    expect((await run(['skills'])).stdout).toBe('no skills\n');
    expect(await json(['skills'])).toEqual({ skills: [], count: 0 });
  });
  it('task --wait exits 1 with the turn status when the turn does not complete (a timeout)', async () => {
    const r = await run(['task', 'rt', 'late', '--wait', 'too', 'slow']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^genswarms: turn_timed_out: turn \S+: /);
    const j = await run(['task', 'rt', 'late', '--wait', '--json', 'again']);
    expect(j.code).toBe(1);
    const [sent, turn] = j.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect([sent?.['status'], turn?.['status']]).toEqual(['sent', 'timed_out']);
  });
});
