import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createLocalRunner, withParentDeathSignal } from '../src/index';
import { isProcessAlive as isAlive } from '../src/lib/process/process-tree';
import { buildLocalLaunchArgv } from '../src/lib/local/local-runner';
import type { AgentCgroup } from '../src/lib/cgroup/agent-cgroup';
import { FIXTURES, makeContext, makeSandboxDirs, makeSpec } from './support';
import { waitFor } from '@genswarms/test-kit';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REGISTER = path.join(ROOT, 'tools', 'jest', 'ts-register.cjs');

describe('local runner: clients die with the server', () => {
  const dirs = makeSandboxDirs();
  afterAll(() => dirs.cleanup());

  it('wraps the client in setpriv --pdeathsig KILL when setpriv exists', () => {
    const ctx = makeContext(dirs.home);
    expect(ctx.binaries.setpriv).toMatch(/^\/.*\/setpriv$/);
    // A root server also drops the client to the agent identity (the uid rule) in the same setpriv.
    const drop =
      ctx.agent !== undefined && ctx.agent.uid !== ctx.serverUid
        ? [`--reuid=${ctx.agent.uid}`, `--regid=${ctx.agent.gid}`, '--clear-groups']
        : [];
    expect(withParentDeathSignal(ctx, ['/usr/bin/node', 'a b'])).toEqual([
      ctx.binaries.setpriv,
      '--pdeathsig',
      'KILL',
      ...drop,
      '--',
      '/usr/bin/node',
      'a b',
    ]);
    const asServer = { ...ctx, agent: { uid: ctx.serverUid, gid: ctx.serverGid }, binaries: { ...ctx.binaries, setpriv: undefined } };
    expect(withParentDeathSignal(asServer, ['/usr/bin/node'])).toEqual(['/usr/bin/node']);
  });

  it('the cgroup join runs under the death signal too (a server killed while it runs leaves no orphan)', () => {
    const ctx = makeContext(dirs.home);
    const setpriv = ctx.binaries.setpriv as string;
    const group: AgentCgroup = {
      tracking: { kind: 'cgroup1', controller: 'freezer', root: '/sys/fs/cgroup/freezer' },
      dir: '/sys/fs/cgroup/freezer/genswarms/x/local/s/a',
      procsFile: '/sys/fs/cgroup/freezer/genswarms/x/local/s/a/cgroup.procs',
    };
    const argv = buildLocalLaunchArgv(ctx, group, ['/usr/bin/node', 'a b'], 'a');
    const inner = withParentDeathSignal(ctx, ['/usr/bin/node', 'a b'], 'a');
    expect(argv.slice(0, 4)).toEqual([setpriv, '--pdeathsig', 'KILL', '--']);
    expect(argv[4]).toMatch(/\/genswarms-cgroup-exec$/);
    expect(argv.slice(5)).toEqual([group.procsFile, ...inner]);
    // Without a cgroup there is no join to cover: the client's own setpriv is first.
    expect(buildLocalLaunchArgv(ctx, undefined, ['/usr/bin/node'], 'a')).toEqual(withParentDeathSignal(ctx, ['/usr/bin/node'], 'a'));
  });

  it('a SIGKILLed server leaves no orphan local client', async () => {
    const parent = spawn(
      process.execPath,
      ['--conditions=@genswarms/source', '--require', REGISTER, path.join(FIXTURES, 'local-parent.ts'), dirs.home, dirs.workspace],
      {
        shell: false,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    await waitFor(() => out.includes('\n'), 'the client pid line', { timeoutMs: 20000 });
    const { pid } = JSON.parse(out.trim()) as { pid: number };
    expect(isAlive(pid)).toBe(true);
    parent.kill('SIGKILL');
    await waitFor(() => !isAlive(pid), `the client (pid ${pid}) to die with its parent`, { timeoutMs: 10000 });
  });

  it('stop still ends the client normally', async () => {
    const ctx = makeContext(dirs.home);
    const runner = createLocalRunner();
    const spec = makeSpec({
      workspace: dirs.workspace,
      agent: 'stopper',
      client: { command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] },
    });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    const pid = handle.describe().pid as number;
    expect(isAlive(pid)).toBe(true);
    await handle.stop({ graceMs: 500 });
    await waitFor(() => !isAlive(pid), `the client (pid ${pid}) to die with its parent`, { timeoutMs: 5000 });
  });
});
