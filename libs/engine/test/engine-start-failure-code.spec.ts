/**
 * A runner that cannot start an agent is recorded by its code (`binary_missing`, `start_failed`, …),
 * never by the error's class name (`RunnerError`) — the reason is what an operator acts on.
 */
import { RunnerError, type RunnerRegistry } from '@genswarms/runners';
import { makeHarness, mockAgent, waitEvent, type Harness } from './harness';

/** The real registry, whose mock runner refuses every start with `error`. */
function refusingStarts(error: unknown): (real: RunnerRegistry) => RunnerRegistry {
  return (real) => ({
    has: (kind) => real.has(kind),
    closeAll: (mode) => real.closeAll(mode),
    get: (kind) => (kind === 'mock' ? { ...real.get('mock'), start: () => Promise.reject(error) } : real.get(kind)),
  });
}

describe('a start failure is recorded as its code', () => {
  let h: Harness | undefined;
  afterEach(() => h?.cleanup());

  test.each([
    [new RunnerError('binary_missing', 'nix-store is not installed'), 'binary_missing'],
    [new RunnerError('start_failed', 'the docker engine is not reachable'), 'start_failed'],
    [new TypeError('no code at all'), 'start_failed'],
  ])('%s → agent_failed reason %s', async (error, reason) => {
    h = await makeHarness({ runners: refusingStarts(error) });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const failed = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_failed', 'agent_failed');
    expect(failed.metadata).toEqual({ reason });
    expect((await h.engine.getAgent('s', 'a')).state).toBe('failed');
  });
});
