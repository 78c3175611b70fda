/**
 * The isolation block is read from the live process, never from the config: each backend × network mode of the
 * network table is started for real and its report checked, and a process that contradicts its plan (an
 * injected mismatch: a host process held to a bwrap `none` plan) yields the differences.
 */
import type { AgentLaunchSpec, IsolationReport, LaunchPlan, Runner, RunnerHandle } from '../../src/index';
import { createBwrapRunner, createLocalRunner, createTmuxRunner } from '../../src/index';
import { findClientPid, isolationCheckFrom, isolationCheckOf, reportFor } from '../../src/lib/isolation/inspect-isolation';
import { inspectProc } from '../../src/lib/isolation/proc-isolation';
import { detectLimitSupport } from '../../src/lib/cgroup/limit-detect';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from '../support';

const missing = ['bwrap', 'tmux', 'socat'].filter((b) => !haveBinary(b));
const suite = missing.length === 0 ? describe : describe.skip;
if (missing.length > 0) console.warn(`SKIPPED isolation-matrix: ${missing.join(', ')} not installed`);
const limitsHere = ['memory', 'pids', 'cpu'].every((c) => detectLimitSupport().bases[c as 'memory'] !== undefined);

const SLEEP: AgentLaunchSpec['client'] = { command: ['/bin/sh', '-c', 'sleep 60'] };
const SANDBOX_NS = ['ipc', 'mnt', 'pid', 'user', 'uts'];

interface Case {
  readonly name: string;
  readonly runner: () => Runner;
  readonly spec: Partial<AgentLaunchSpec>;
  readonly expect: Omit<Partial<IsolationReport>, 'namespaces'> & { namespaces?: readonly string[] };
}

const CASES: readonly Case[] = [
  {
    name: 'local, open: host namespaces, host network, host root visible',
    runner: createLocalRunner,
    spec: { backend: 'local', network: 'open' },
    expect: { namespaces: [], network: 'host', seccomp: 'disabled' },
  },
  {
    name: 'bwrap, open: own user/pid/mnt/uts/ipc, host network, no new privs, host root hidden',
    runner: createBwrapRunner,
    spec: { backend: 'bwrap', network: 'open' },
    expect: { network: 'host', no_new_privs: true, seccomp: 'disabled', namespaces: [...SANDBOX_NS, 'cgroup'].sort() },
  },
  {
    name: 'bwrap, none: own network namespace with loopback only, the network filter',
    runner: createBwrapRunner,
    spec: { backend: 'bwrap', network: 'none' },
    expect: { network: 'loopback', seccomp: 'filter', namespaces: [...SANDBOX_NS, 'cgroup', 'net'].sort() },
  },
  {
    name: 'bwrap, isolated, seccomp default: loopback only, the egress pin, the seccomp filter',
    runner: createBwrapRunner,
    spec: { backend: 'bwrap', network: 'isolated', config: { seccomp: 'default' } },
    expect: { network: 'loopback', seccomp: 'filter', egress: '127.0.0.1:9' },
  },
  {
    name: 'tmux runner none, open: a host process in a pane',
    runner: () => createTmuxRunner(),
    spec: { backend: 'tmux', runner: 'none', network: 'open' },
    expect: { namespaces: [], network: 'host' },
  },
  {
    name: 'tmux runner bwrap, none: the pane client inside bwrap, under the network filter',
    runner: () => createTmuxRunner(),
    spec: { backend: 'tmux', runner: 'bwrap', network: 'none' },
    expect: { network: 'loopback', no_new_privs: true, seccomp: 'filter' },
  },
];

suite('isolation from the live process (real runners)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let runner: Runner | undefined;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    await runner?.close?.('shutdown');
    handle = undefined;
    runner = undefined;
    dirs.cleanup();
  });

  async function start(c: Pick<Case, 'runner' | 'spec'>): Promise<{ plan: LaunchPlan; report: IsolationReport }> {
    const ctx = makeContext(dirs.home, { llm: { defaultEndpoint: 'http://127.0.0.1:9/v1', allowedHosts: [] } });
    runner = c.runner();
    const plan = runner.plan(makeSpec({ workspace: dirs.workspace, client: SLEEP, ...c.spec }), ctx);
    handle = await runner.start(plan, ctx);
    const report = await handle.isolation?.();
    if (report === undefined) throw new Error('no isolation() on the handle');
    return { plan, report };
  }

  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { plan, report } = await start(c);
    // the plan expects the filter exactly where the live process has one, so re-attach/inspect never reports a false mismatch
    expect(isolationCheckOf(plan).expected.seccomp).toBe(c.expect.seccomp === 'filter' ? 'filter' : undefined);
    expect(report).toMatchObject(c.expect);
    expect(report.differences).toEqual([]);
    const sandboxed = c.spec.backend === 'bwrap' || c.spec.runner === 'bwrap';
    expect(report.mounts.host_root_visible).toBe(!sandboxed);
    if (sandboxed) expect(report.mounts).toMatchObject({ workspace: 'rw', state_dir: 'rw' });
    expect(report.bypass_flags).toEqual([]);
    expect(Date.parse(report.verified_at)).not.toBeNaN();
  });

  (limitsHere ? it : it.skip)('bwrap with memory_limit, pids_limit, cpu_limit: the limits in force on the client', async () => {
    const { report } = await start({
      runner: createBwrapRunner,
      spec: { backend: 'bwrap', network: 'none', config: { memory_limit: '256m', pids_limit: 64, cpu_limit: 0.5 } },
    });
    expect(report.limits).toEqual({ memory_bytes: 256 * 1024 * 1024, pids: 64, cpu: 0.5 });
    expect(report.differences).toEqual([]);
  });

  it('tmux runner bwrap re-attached by a new runner (a server restart): the stored check is read again', async () => {
    const { plan } = await start({ runner: () => createTmuxRunner(), spec: { backend: 'tmux', runner: 'bwrap', network: 'none' } });
    const description = handle?.describe();
    expect(description?.isolationCheck).toEqual(isolationCheckOf(plan));
    const ctx = makeContext(dirs.home);
    const again = createTmuxRunner();
    const adopted = await again.reattach?.(JSON.parse(JSON.stringify(description)), ctx);
    const report = await adopted?.isolation?.();
    expect(report).toMatchObject({ network: 'loopback', no_new_privs: true, differences: [] });
    await again.close?.('detach');
  });

  it.each([
    ['an unknown key', (c: Record<string, unknown>) => ({ ...c, extra: 1 })],
    [
      'a namespace that does not exist',
      (c: Record<string, unknown>) => ({ ...c, expected: { ...(c['expected'] as object), namespaces: ['time'] } }),
    ],
    ['a widened promise', (c: Record<string, unknown>) => ({ ...c, expected: { ...(c['expected'] as object), host_root_visible: true } })],
    ['not an object', () => 'x'],
  ])('a stored check with %s is ignored (no check, never a wrong one)', (_name, tamper) => {
    const plan = createBwrapRunner().plan(
      makeSpec({ workspace: dirs.workspace, client: SLEEP, backend: 'bwrap', network: 'none' }),
      makeContext(dirs.home),
    );
    const stored = JSON.parse(JSON.stringify(isolationCheckOf(plan))) as Record<string, unknown>;
    expect(isolationCheckFrom(stored)).toEqual(stored);
    expect(isolationCheckFrom(tamper(stored))).toBeUndefined();
  });

  it('injected mismatch: a host process held to a bwrap none plan reports every difference', async () => {
    const { plan: localPlan } = await start({ runner: createLocalRunner, spec: { backend: 'local', network: 'open' } });
    const ctx = makeContext(dirs.home);
    const bwrapPlan = createBwrapRunner().plan(
      makeSpec({ workspace: dirs.workspace, client: SLEEP, backend: 'bwrap', network: 'none', config: { pids_limit: 32 } }),
      { ...ctx, limitSupport: { version: 1, bases: { pids: '/sys/fs/cgroup/pids' }, reasons: [] } },
    );
    const pid = await findClientPid(handle?.describe().pid as number, false);
    const report = reportFor(inspectProc(pid), isolationCheckOf(bwrapPlan));
    expect(localPlan.spec.backend).toBe('local');
    expect(report.differences.map((d) => d.field)).toEqual(
      expect.arrayContaining(['namespaces.net', 'namespaces.user', 'network', 'no_new_privs', 'limits.pids', 'mounts.host_root_visible']),
    );
    expect(report.differences.find((d) => d.field === 'network')).toEqual({ field: 'network', expected: 'loopback', actual: 'host' });
  });
});
