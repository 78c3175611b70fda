import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle } from '../src/index';
import { createBwrapRunner } from '../src/index';
import { isProcessAlive, listDescendants } from '../src/lib/process/process-tree';
import { FIXTURES, haveBinary, hostileWords, makeContext, makeSandboxDirs, makeSpec, PROBE_SANDBOX, waitForFile } from './support';

const suite = haveBinary('bwrap') ? describe : describe.skip;
if (!haveBinary('bwrap')) console.warn('SKIPPED bwrap-runner: bubblewrap is not installed');

suite('bwrap runner (real bubblewrap)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  const fixtureBind: [string, string] = [FIXTURES, '/opt/fixtures'];

  it('passes hostile argv byte-for-byte through bwrap and the launcher; nothing executes', async () => {
    const marker = path.join(dirs.workspace, 'pwned');
    const words = [...hostileWords(marker), ...hostileWords('/workspace/pwned')];
    const ctx = makeContext(dirs.home);
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      workspace: dirs.workspace,
      client: { command: [process.execPath, '/opt/fixtures/echo-argv.js', ...words] },
      config: { env: { ECHO_ARGV_OUT: '/workspace/out.json' }, extra_ro_binds: [fixtureBind] },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const report = JSON.parse(await waitForFile(path.join(dirs.workspace, 'out.json'))) as { argv: string[]; uid: number; cwd: string };
    expect(report.argv).toEqual(words);
    expect(report.uid).toBe(1000);
    expect(report.cwd).toBe('/workspace');
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(dirs.workspace)).toEqual(['out.json']);
  });

  it('keeps the boundary: no $GENSWARMS_HOME or tmux socket dir, workspace rw, skills ro, /root = state dir, none = lo only', async () => {
    const tmuxDir = path.join(dirs.home, 'tmux');
    mkdirSync(tmuxDir, { mode: 0o700 });
    writeFileSync(path.join(tmuxDir, 'tmux.sock'), '');
    const skill = path.join(dirs.root, 'skill-a');
    mkdirSync(skill);
    writeFileSync(path.join(skill, 'SKILL.md'), '# a');
    const ctx = makeContext(dirs.home, { agentEntry: PROBE_SANDBOX });
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: 'none',
      workspace: dirs.workspace,
      skills: [skill],
      config: {
        env: {
          PROBE_OUT: '/workspace/probe.json',
          PROBE_PATHS: JSON.stringify([dirs.home, tmuxDir, '/skills/skill-a/SKILL.md', dirs.root, '/etc/resolv.conf']),
        },
      },
    });
    const plan = runner.plan(spec, ctx);
    expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBeUndefined();
    handle = await runner.start(plan, ctx);
    const probe = JSON.parse(await waitForFile(path.join(dirs.workspace, 'probe.json'))) as Record<string, unknown>;
    expect(probe['exists']).toEqual({
      [dirs.home]: false,
      [tmuxDir]: false,
      '/skills/skill-a/SKILL.md': true,
      [dirs.root]: false,
      '/etc/resolv.conf': false,
    });
    expect(probe['workspaceWritable']).toBe(true);
    expect(probe['rootWritable']).toBe(true);
    expect(probe['skillsWritable']).toEqual([false]);
    expect(probe['usrWritable']).toBe(false);
    expect(probe['netdev']).toEqual(['lo']);
    expect(probe['home']).toBe('/root');
    expect(probe['rootListing']).toEqual(['.genswarms']); // the state dir, whose env file the launcher deleted
    const stateDir = path.join(dirs.home, 'state', 'swarm1', 'agent1');
    expect(readdirSync(path.join(stateDir, '.genswarms'))).toEqual([]);
  });

  it('keeps a secret out of host cmdlines and describe(); it reaches the client through the env file only', async () => {
    const secret = `sk-bwrap-${process.pid}-${Date.now()}`;
    const ctx = makeContext(dirs.home);
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      workspace: dirs.workspace,
      apiKey: secret,
      config: { env: { ECHO_ARGV_OUT: '/workspace/out.json', ECHO_ARGV_HOLD: '1' } },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const report = JSON.parse(await waitForFile(path.join(dirs.workspace, 'out.json'))) as { env: Record<string, string> };
    expect(report.env['GENSWARMS_LLM_API_KEY']).toBe(secret);
    const cmdlines = readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .map((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8');
        } catch {
          return '';
        }
      });
    expect(cmdlines.join('\n')).not.toContain(secret);
    expect(JSON.stringify(handle.describe())).not.toContain(secret);
  });

  it('stop leaves no process of the sandbox tree; a crash is reported via onExit', async () => {
    const ctx = makeContext(dirs.home);
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      workspace: dirs.workspace,
      config: { env: { ECHO_ARGV_OUT: '/workspace/out.json', ECHO_ARGV_HOLD: '1', ECHO_ARGV_FORK: '1' } },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    await waitForFile(path.join(dirs.workspace, 'out.json'));
    const pid = handle.describe().pid as number;
    const tree = [pid, ...listDescendants(pid)];
    expect(tree.length).toBeGreaterThanOrEqual(3); // bwrap, its namespace init, the client (+ grandchild)
    await handle.stop({ graceMs: 1000 });
    expect(tree.filter((p) => isProcessAlive(p))).toEqual([]);

    const crash = makeSpec({ backend: 'bwrap', agent: 'agent2', workspace: dirs.workspace, config: { env: { ECHO_ARGV_EXIT: '4' } } });
    const crashed = await runner.start(runner.plan(crash, ctx), ctx);
    handle = crashed;
    const code = await new Promise<number | null>((resolve) => crashed.onExit((c) => resolve(c)));
    expect(code).toBe(4);
    expect(await crashed.health()).toBe('exited');
  });
});
