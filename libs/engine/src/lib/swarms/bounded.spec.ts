import { createLimiter, forEachBounded, interleaveByLane, mapBounded } from './bounded';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test.each([
  [0, 4],
  [3, 4],
  [10, 4],
  [10, 1],
])('runs each of %i items once with at most %i in flight', async (count, limit) => {
  let inFlight = 0;
  let peak = 0;
  const seen: number[] = [];
  await forEachBounded(
    Array.from({ length: count }, (_, i) => i),
    limit,
    async (i) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await tick();
      seen.push(i);
      inFlight -= 1;
    },
  );
  expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
  expect(peak).toBeLessThanOrEqual(limit);
  if (count >= limit) expect(peak).toBe(limit);
});

test('rethrows the first failure after every started call settled', async () => {
  const done: number[] = [];
  const run = forEachBounded([1, 2, 3, 4], 2, async (i) => {
    await tick();
    if (i === 2) throw new Error('two');
    done.push(i);
  });
  await expect(run).rejects.toThrow('two');
  expect(done.sort()).toEqual([1, 3, 4]);
});

test('mapBounded returns the results in item order with at most the limit in flight', async () => {
  let inFlight = 0;
  let peak = 0;
  const out = await mapBounded([5, 1, 4, 2, 3], 2, async (i) => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    for (let t = 0; t < i; t += 1) await tick();
    inFlight -= 1;
    return i * 10;
  });
  expect(out).toEqual([50, 10, 40, 20, 30]);
  expect(peak).toBe(2);
});

test('mapBounded rethrows the failure of the lowest index, after every started call settled', async () => {
  const done: number[] = [];
  const run = mapBounded([1, 2, 3, 4], 4, async (i) => {
    // item 4 fails first in time, item 2 fails later: a one-by-one loop would have met 2 first
    for (let t = 0; t < (i === 4 ? 0 : 3); t += 1) await tick();
    if (i === 2 || i === 4) throw new Error(`fail ${i}`);
    done.push(i);
  });
  await expect(run).rejects.toThrow('fail 2');
  expect(done.sort()).toEqual([1, 3]);
});

test('a limiter runs at most `limit` calls at once across callers, hands a freed slot to the oldest waiter, and survives failures', async () => {
  const limiter = createLimiter(2);
  let inFlight = 0;
  let peak = 0;
  const order: string[] = [];
  const job = (name: string, fail = false) =>
    limiter.run(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      order.push(name);
      await tick();
      inFlight -= 1;
      if (fail) throw new Error(name);
      return name;
    });
  const results = await Promise.allSettled([job('a'), job('b', true), job('c'), job('d'), job('e')]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual(['a', 'failed', 'c', 'd', 'e']);
  expect(peak).toBe(2);
  expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(limiter.inFlight()).toBe(0);
});

test.each([
  ['no items', [], []],
  ['one lane keeps its order', ['a1', 'a2', 'a3'], ['a1', 'a2', 'a3']],
  ['lanes take turns', ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'], ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']],
  ['interleaved input stays interleaved', ['a1', 'b1', 'a2', 'b2'], ['a1', 'b1', 'a2', 'b2']],
  ['first seen lane first', ['b1', 'a1', 'b2'], ['b1', 'a1', 'b2']],
])('interleaveByLane: %s', (_what, items: string[], expected: string[]) => {
  expect(interleaveByLane(items, (x) => x[0])).toEqual(expected);
});

test('interleaveByLane: an undefined lane is a lane like any other, nothing lost or doubled', () => {
  const items = Array.from({ length: 1000 }, (_, i) => ({ i, lane: i < 950 ? Math.floor(i / 200) : undefined }));
  const out = interleaveByLane(items, (x) => x.lane);
  expect(out.map((x) => x.i).sort((a, b) => a - b)).toEqual(items.map((x) => x.i));
  expect(out.slice(0, 6).map((x) => x.lane)).toEqual([0, 1, 2, 3, 4, undefined]);
});

// A launch of 10,000 mock agents is promise work only: run as microtasks to the end, it kept HTTP requests waiting
// for seconds. Each bounded run gives the event loop a turn once it has held it for BOUNDED_SLICE_MS.
test.each([
  ['forEachBounded', (items: number[], fn: (i: number) => Promise<void>) => forEachBounded(items, 8, fn)],
  ['mapBounded', (items: number[], fn: (i: number) => Promise<void>) => mapBounded(items, 8, fn).then(() => undefined)],
])(
  '%s over work that never waits for I/O lets a timer run while it goes on',
  async (_name, run) => {
    const items = Array.from({ length: 20_000 }, (_, i) => i);
    let doneAt = -1;
    let timerAt = -1;
    let count = 0;
    setTimeout(() => (timerAt = count), 0);
    const busy = async (): Promise<void> => {
      const until = performance.now() + 0.05;
      while (performance.now() < until); // 50 µs of CPU per item: 20,000 items hold the loop for a second without a yield
      count += 1;
    };
    await run(items, busy);
    doneAt = count;
    await new Promise((r) => setTimeout(r, 5));
    expect(timerAt).toBeGreaterThanOrEqual(0);
    expect(timerAt).toBeLessThan(doneAt);
  },
  30_000,
);
