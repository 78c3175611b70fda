/**
 * One rule for the fuzz seed: every seed `npm run fuzz` may choose (its clock default or `--seed`) is one the
 * specs it runs accept through GENSWARMS_FUZZ_SEED, and both refuse the same texts.
 */
import { spawnSync } from 'node:child_process';
import { FUZZ_SEED_MAX, fuzzSeedFromClock, parseFuzzSeed } from '../../reliability/fuzz-seed.cjs';
import { fuzzSettings } from './fuzz-settings';

const RUN_FUZZ = require.resolve('../../reliability/run-fuzz.cjs');

const seedOf = (text: string): number => fuzzSettings({ GENSWARMS_FUZZ_SEED: text }).seed;

describe('the fuzz seed rule', () => {
  test.each([
    ['1', 1],
    ['19', 19],
    ['999999999', 999_999_999],
    ['1000000000 (ten digits: the clock default was often this long)', 1_000_000_000],
    ['2147483647 (2^31 − 1)', FUZZ_SEED_MAX],
  ])('the specs accept seed %s', (text, seed) => {
    expect(seedOf(text.split(' ')[0] ?? '')).toBe(seed);
    expect(parseFuzzSeed(text.split(' ')[0])).toBe(seed);
  });

  test.each(['0', '2147483648', '99999999999', '-1', '+1', '1e9', '0x10', ' 1', '1 ', '1.5', '١', 'NaN', '__proto__'])(
    'both refuse seed %j',
    (text) => {
      expect(() => seedOf(text)).toThrow('GENSWARMS_FUZZ_SEED must be an integer 1 … 2147483647');
      expect(parseFuzzSeed(text)).toBeUndefined();
      const r = spawnSync(process.execPath, [RUN_FUZZ, '--seed', text, '--list'], { encoding: 'utf8', shell: false });
      expect({ status: r.status, stderr: r.stderr.split('\n')[0] }).toEqual({
        status: 2,
        stderr: 'fuzz: --seed must be an integer 1 … 2147483647',
      });
    },
  );

  test.each([0, 1, 999_999_999, 1_000_000_000, 1_764_857_000_000, 2 * FUZZ_SEED_MAX - 1, Date.now(), Number.MAX_SAFE_INTEGER])(
    'the default seed of a run at clock %d is one the specs accept',
    (now) => {
      const seed = fuzzSeedFromClock(now);
      expect(seed).toBeGreaterThanOrEqual(1);
      expect(seed).toBeLessThanOrEqual(FUZZ_SEED_MAX);
      expect(seedOf(String(seed))).toBe(seed);
    },
  );
});
