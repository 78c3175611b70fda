import type { LaunchPlan, RunnerContext } from '../port';
import { buildBwrapArgs } from './bwrap-args';

const ctx = {
  home: '/gs',
  serverUid: 0,
  serverGid: 0,
  binaries: { node: '/usr/bin/node' },
  agentEntry: '/a/main.js',
  llm: { allowedHosts: [] },
} as RunnerContext;

function plan(network: LaunchPlan['spec']['network']): LaunchPlan {
  return {
    spec: {
      swarm: 's',
      agent: 'a',
      backend: 'bwrap',
      client: 'genswarms-agent',
      network,
      workspace: '/w',
      skills: [],
      unsafeBypass: false,
      topologyTargets: [],
      config: {},
      backendOpts: {},
    },
    sessionId: 'x',
    stateDir: '/gs/state/s/a',
    clientArgv: ['/usr/bin/node', '/run/genswarms/agent/main.js'],
    env: { SECRET: 'never-in-argv' },
    mounts: [
      { host: '/usr', sandbox: '/usr', access: 'ro' },
      { host: '/w', sandbox: '/workspace', access: 'rw' },
      { host: '/gs/state/s/a', sandbox: '/root', access: 'rw' },
    ],
    notices: [],
  };
}

const BASE = [
  '--die-with-parent',
  '--unshare-user',
  '--unshare-pid',
  '--unshare-uts',
  '--unshare-ipc',
  '--unshare-cgroup-try',
  '--uid',
  '1000',
  '--gid',
  '1000',
  '--clearenv',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  '--tmpfs',
  '/tmp',
  '--chdir',
  '/workspace',
];
const BINDS = ['--ro-bind', '/usr', '/usr', '--bind', '/w', '/workspace', '--bind', '/gs/state/s/a', '/root'];
const TAIL = ['--', '/run/genswarms/launch', '/root/.genswarms/env', '/usr/bin/node', '/run/genswarms/agent/main.js'];

describe('buildBwrapArgs', () => {
  it('builds the whole tuple for a headless open agent', () => {
    expect(buildBwrapArgs(plan('open'), ctx, { headless: true })).toEqual([...BASE, '--new-session', ...BINDS, ...TAIL]);
  });

  it.each(['none', 'isolated'] as const)('adds --unshare-net and the network filter (--seccomp 3) for %s', (network) => {
    expect(buildBwrapArgs(plan(network), ctx, { headless: true })).toEqual([
      ...BASE,
      '--new-session',
      '--unshare-net',
      '--seccomp',
      '3',
      ...BINDS,
      ...TAIL,
    ]);
  });

  it('omits --new-session for a TUI client', () => {
    expect(buildBwrapArgs(plan('open'), ctx, { headless: false })).toEqual([...BASE, ...BINDS, ...TAIL]);
  });

  it('puts every tmpfs/proc/dev before the first bind, so none masks a bind', () => {
    const args = buildBwrapArgs(plan('open'), ctx, { headless: true });
    const firstBind = args.findIndex((a) => a === '--bind' || a === '--ro-bind');
    const lastFs = Math.max(...['--tmpfs', '--proc', '--dev'].map((f) => args.lastIndexOf(f)));
    expect(lastFs).toBeLessThan(firstBind);
  });

  it('adds --seccomp 3 (the fd genswarms-seccomp-exec opened) with config.seccomp default', () => {
    const p = plan('none');
    const withFilter = { ...p, spec: { ...p.spec, config: { seccomp: 'default' as const } } };
    expect(buildBwrapArgs(withFilter, ctx, { headless: true })).toEqual([
      ...BASE,
      '--new-session',
      '--unshare-net',
      '--seccomp',
      '3',
      ...BINDS,
      ...TAIL,
    ]);
  });

  it('open gets --seccomp 3 only with config.seccomp default', () => {
    const p = plan('open');
    const withFilter = { ...p, spec: { ...p.spec, config: { seccomp: 'default' as const } } };
    expect(buildBwrapArgs(withFilter, ctx, { headless: true })).toEqual([...BASE, '--new-session', '--seccomp', '3', ...BINDS, ...TAIL]);
  });

  it('never carries an env value', () => {
    expect(buildBwrapArgs(plan('open'), ctx, { headless: true }).join('\n')).not.toContain('never-in-argv');
  });
});
