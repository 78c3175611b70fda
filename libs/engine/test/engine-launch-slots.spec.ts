/**
 * The launch bound is the engine's, not each swarm's: swarms started at once share LAUNCH_CONCURRENCY
 * slots. Before, each start had its own bound, so K swarms started together launched K × the bound at
 * once (docs/benchmarks.md: four 1,000-agent local swarms, the per-agent cost 3× from the first tenth of
 * the launch to the last). The real mock runner does the starts; the wrapper only counts and holds them.
 */
import type { Runner, RunnerRegistry } from '@genswarms/runners';
import { LAUNCH_CONCURRENCY } from '../src/lib/swarms/bounded';
import { makeHarness, mockAgent, type Harness } from './harness';

function countingRegistry(real: RunnerRegistry, seen: { inFlight: number; peak: number; started: number }): RunnerRegistry {
  let held: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  // Every start is held until no new one arrived for 100 ms: all the starts the engine lets run at once are in flight together.
  const hold = (): Promise<void> =>
    new Promise((resolve) => {
      held.push(resolve);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const release = held;
        held = [];
        for (const r of release) r();
      }, 100);
    });
  const wrap = (runner: Runner): Runner => ({
    ...runner,
    start: async (plan, ctx) => {
      seen.inFlight += 1;
      seen.started += 1;
      seen.peak = Math.max(seen.peak, seen.inFlight);
      try {
        await hold();
        return await runner.start(plan, ctx);
      } finally {
        seen.inFlight -= 1;
      }
    },
  });
  return {
    get: (kind) => (kind === 'mock' ? wrap(real.get(kind)) : real.get(kind)),
    has: (kind) => real.has(kind),
    closeAll: (m) => real.closeAll(m),
  };
}

describe('engine: launch slots are shared by every swarm starting at once', () => {
  let h: Harness;
  const seen = { inFlight: 0, peak: 0, started: 0 };
  beforeAll(async () => {
    h = await makeHarness({ runners: (real) => countingRegistry(real, seen) });
  });
  afterAll(async () => h.cleanup());

  it('three swarms of 2 × LAUNCH_CONCURRENCY agents started together never have more than LAUNCH_CONCURRENCY launches in flight', async () => {
    const n = 2 * LAUNCH_CONCURRENCY;
    const swarms = ['slots-a', 'slots-b', 'slots-c'];
    const started = await Promise.all(
      swarms.map((name) => h.engine.startSwarm({ config: { name, agents: Array.from({ length: n }, (_, i) => mockAgent(`m${i}`)) } })),
    );
    expect(started.map((s) => s.status)).toEqual(['created', 'created', 'created']);
    expect(seen.started).toBe(3 * n);
    expect(seen.peak).toBe(LAUNCH_CONCURRENCY);
    for (const name of swarms) await h.engine.stopSwarm(name, { purge: true });
  });
});
