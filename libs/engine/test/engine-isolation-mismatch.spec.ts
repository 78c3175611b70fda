/**
 * After start the engine reads the isolation the live process really has (RunnerHandle.isolation) and shows it
 * in the agent status; a process that contradicts its plan puts the session in needs_attention
 * (isolation_mismatch) with the differences in the event — an injected mismatch here, the real /proc reading
 * is proven per backend in libs/runners/test/isolation.
 */
import type { IsolationReport, RunnerRegistry } from '@genswarms/runners';
import { makeHarness, mockAgent, waitEvent, waitFor, type Harness } from './harness';

const REPORT: IsolationReport = {
  verified_at: '2026-12-01T00:00:00.000Z',
  pid: 4242,
  namespaces: ['ipc', 'mnt', 'pid', 'user', 'uts'],
  no_new_privs: true,
  seccomp: 'disabled',
  network: 'host',
  limits: {},
  mounts: { workspace: 'rw', state_dir: 'rw', host_root_visible: false },
  bypass_flags: [],
  differences: [],
};
const MISMATCH = { field: 'network', expected: 'loopback', actual: 'host' };

/** The real registry, whose mock runner's handles report `report` as their live isolation (or fail to read it). */
function reporting(report: IsolationReport | Error): (real: RunnerRegistry) => RunnerRegistry {
  return (real) => ({
    has: (kind) => real.has(kind),
    closeAll: (mode) => real.closeAll(mode),
    get: (kind) => {
      const runner = real.get(kind);
      if (kind !== 'mock') return runner;
      const isolation = (): Promise<IsolationReport> => (report instanceof Error ? Promise.reject(report) : Promise.resolve(report));
      return { ...runner, start: async (plan, ctx) => Object.assign(await runner.start(plan, ctx), { isolation }) };
    },
  });
}

describe('isolation read from the live process after start', () => {
  let h: Harness | undefined;
  afterEach(() => h?.cleanup());

  it('a process matching its plan: idle, and the status carries the isolation block', async () => {
    h = await makeHarness({ runners: reporting(REPORT) });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'idle' ? st : undefined;
    }, 'idle');
    expect(status.isolation).toEqual(REPORT);
    expect(status.needs_attention).toBeNull();
  });

  it('an injected mismatch: needs_attention isolation_mismatch, the differences in the event and the status', async () => {
    h = await makeHarness({ runners: reporting({ ...REPORT, differences: [MISMATCH] }) });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const event = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_needs_attention', 'agent_needs_attention');
    expect(event.metadata).toEqual({ reason: 'isolation_mismatch', differences: [MISMATCH] });
    const status = await h.engine.getAgent('s', 'a');
    expect(status.state).toBe('needs_attention');
    expect(status.needs_attention).toEqual({ reason: 'isolation_mismatch', turn: null });
    expect(status.isolation?.differences).toEqual([MISMATCH]);
  });

  it('a check that fails on a running agent is reported (engine_error, where isolation_check); the agent keeps running', async () => {
    h = await makeHarness({
      runners: reporting(Object.assign(new Error('no /proc'), { code: 'ENOENT' })),
      log: { error: () => undefined },
    });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const reported = await waitEvent(h.engine, 's', (e) => e.event_type === 'engine_error', 'engine_error');
    expect(reported.metadata).toMatchObject({ where: 'isolation_check', code: 'enoent' });
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'idle' ? st : undefined;
    }, 'idle');
    expect(status.isolation).toBeNull();
  });

  it('a runner without the check (mock): isolation is null', async () => {
    h = await makeHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'idle' ? st : undefined;
    }, 'idle');
    expect(status.isolation).toBeNull();
  });
});
