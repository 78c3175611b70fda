import { forEachBounded } from './bounded';

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
