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

  const UNEXPECTED = 'the runner could not start the agent because of an unexpected error; the server log has its detail';
  test.each([
    [
      new RunnerError('binary_missing', 'nix-store is not installed', { details: { binary: 'nix-store' } }),
      'binary_missing',
      'nix-store is not installed',
      { binary: 'nix-store' },
    ],
    [new RunnerError('start_failed', 'the docker engine is not reachable'), 'start_failed', 'the docker engine is not reachable', {}],
    [new TypeError('no code at all'), 'start_failed', UNEXPECTED, {}],
  ])('%s → agent_failed reason %s with its sentence and details (event, log, status)', async (error, reason, message, details) => {
    const logged: Array<[string, Record<string, unknown>]> = [];
    h = await makeHarness({ runners: refusingStarts(error), log: { error: (m, meta) => logged.push([m, meta]) } });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    const failed = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_failed', 'agent_failed');
    expect(failed.metadata).toEqual({ reason, message, ...details });
    expect(failed.message).toBe(`Agent a failed: ${reason}: ${message}`);
    const status = await h.engine.getAgent('s', 'a');
    expect([status.state, status.failure]).toEqual(['failed', { code: reason, message, details }]);
    const line = logged.find(([m]) => m === 'agent_failed')?.[1];
    expect(line).toMatchObject({ swarm: 's', agent: 'a', reason, explanation: message, ...details });
    // the thrown error's own text reaches the log only (an unexpected error), never the event
    if (message === UNEXPECTED) expect(line?.['detail']).toBe('no code at all');
  });
});
