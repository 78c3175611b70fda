/**
 * Where limits and seccomp go at plan: bwrap and tmux+bwrap join the agent's limit groups first, then open the
 * filter; local and tmux none refuse both.
 */
import { createLocalRunner, createTmuxRunner, RunnerError } from '../../src/index';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import { paneLaunchFor } from '../../src/lib/tmux/pane-command';
import { CGROUP_EXEC_PATH } from '../../src/lib/launcher/launcher';
import { SECCOMP_EXEC_PATH, seccompFilterPath } from '../../src/lib/seccomp/seccomp-plan';
import type { LimitSupport } from '../../src/lib/cgroup/limit-detect';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { refusal } from '@genswarms/test-kit';

/** What the assertions compare: the code and the details. */
const plain = (e: RunnerError): { code: string; details: unknown } => ({ code: e.code, details: e.details });

const V1: LimitSupport = {
  version: 1,
  bases: { memory: '/cg/memory/srv', pids: '/cg/pids', cpu: '/cg/cpu', cpuacct: '/cg/cpuacct' },
  reasons: [],
};

let dirs: ReturnType<typeof makeSandboxDirs>;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

describe('limits at plan', () => {
  it('tmux runner bwrap: the pane joins one group per v1 controller (cpuacct with cpu), then setpriv/bwrap', () => {
    const ctx = makeContext(dirs.home, { limitSupport: V1 });
    const spec = makeSpec({
      backend: 'tmux',
      runner: 'bwrap',
      client: { command: ['/bin/sh'] },
      workspace: dirs.workspace,
      config: { memory_limit: '64m', cpu_limit: 0.5 },
    });
    const plan = createTmuxRunner().plan(spec, ctx);
    const { entry, words } = paneLaunchFor(plan, ctx);
    expect(entry).toBe(CGROUP_EXEC_PATH);
    expect(words.slice(0, 5)).toEqual([
      expect.stringMatching(/^\/cg\/memory\/srv\/genswarms\/[0-9a-f]{16}\/bwrap\/swarm1\/agent1\/cgroup\.procs$/),
      CGROUP_EXEC_PATH,
      expect.stringMatching(/^\/cg\/cpu\/genswarms\/[0-9a-f]{16}\/bwrap\/swarm1\/agent1\/cgroup\.procs$/),
      CGROUP_EXEC_PATH,
      expect.stringMatching(/^\/cg\/cpuacct\/genswarms\/[0-9a-f]{16}\/bwrap\/swarm1\/agent1\/cgroup\.procs$/),
    ]);
    expect(words).toContain(ctx.binaries.bwrap);
  });

  it('tmux runner bwrap without limits: the pane entry is setpriv or bwrap, as before', () => {
    const ctx = makeContext(dirs.home, { limitSupport: V1 });
    const spec = makeSpec({ backend: 'tmux', runner: 'bwrap', client: { command: ['/bin/sh'] }, workspace: dirs.workspace });
    expect(paneLaunchFor(createTmuxRunner().plan(spec, ctx), ctx).entry).not.toBe(CGROUP_EXEC_PATH);
  });

  test.each([
    ['local', makeSpecFor('local')],
    ['tmux runner none', makeSpecFor('tmux')],
  ])('%s refuses every limit: limits_unsupported with the keys', (_label, make) => {
    const ctx = makeContext(dirs.home, { limitSupport: V1 });
    const spec = make(dirs.workspace);
    const runner = spec.backend === 'local' ? createLocalRunner() : createTmuxRunner();
    expect(plain(refusal(RunnerError, () => runner.plan(spec, ctx)))).toEqual({
      code: 'limits_unsupported',
      details: { agent: 'agent1', keys: ['memory_limit', 'pids_limit'] },
    });
  });
});

function makeSpecFor(backend: 'local' | 'tmux') {
  return (workspace: string) =>
    makeSpec({ backend, client: { command: ['/bin/sh'] }, workspace, config: { memory_limit: '64m', pids_limit: 32 } });
}

describe('seccomp at plan', () => {
  it('tmux runner bwrap: the pane opens the filter after the limit groups, before setpriv/bwrap; bwrap reads fd 3', () => {
    const ctx = makeContext(dirs.home, { limitSupport: V1 });
    const spec = makeSpec({
      backend: 'tmux',
      runner: 'bwrap',
      client: { command: ['/bin/sh'] },
      workspace: dirs.workspace,
      config: { pids_limit: 32, seccomp: 'default' },
    });
    const plan = createTmuxRunner().plan(spec, ctx);
    const { entry, words } = paneLaunchFor(plan, ctx);
    expect(entry).toBe(CGROUP_EXEC_PATH);
    expect(words.slice(1, 3)).toEqual([SECCOMP_EXEC_PATH, seccompFilterPath(plan, ctx)]);
    expect(seccompFilterPath(plan, ctx)).toBe(`${dirs.home}/manifests/swarm1/agent1/${plan.sessionId}.bpf`);
    const bwrapAt = words.indexOf(ctx.binaries.bwrap as string);
    expect(words.slice(bwrapAt).join(' ')).toContain(' --seccomp 3 ');
  });

  test.each([
    ['local', { backend: 'local' as const }],
    ['tmux runner none', { backend: 'tmux' as const }],
  ])('%s refuses config.seccomp: seccomp_unsupported', (_label, over) => {
    const ctx = makeContext(dirs.home, { limitSupport: V1 });
    const spec = makeSpec({ ...over, client: { command: ['/bin/sh'] }, workspace: dirs.workspace, config: { seccomp: 'default' } });
    const runner = spec.backend === 'local' ? createLocalRunner() : createTmuxRunner();
    expect(plain(refusal(RunnerError, () => runner.plan(spec, ctx)))).toEqual({
      code: 'seccomp_unsupported',
      details: { agent: 'agent1' },
    });
  });
});

describe('ssh has no boundary for limits or seccomp', () => {
  test.each([
    [{ memory_limit: '64m' }, 'limits_unsupported'],
    [{ seccomp: 'default' as const }, 'seccomp_unsupported'],
  ])('ssh with %j → %s at plan', (config, code) => {
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({ backend: 'ssh', host: 'agent@box.example', workspace: dirs.workspace, config } as never);
    expect(plain(refusal(RunnerError, () => createSshRunner().plan(spec, ctx)))).toMatchObject({ code });
  });
});
