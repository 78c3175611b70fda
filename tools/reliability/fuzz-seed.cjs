'use strict';
// The fuzz seed's one rule, shared by `npm run fuzz` (run-fuzz.cjs: its default and `--seed`) and the specs it
// runs (tools/src/fuzz/fuzz-settings.ts reads GENSWARMS_FUZZ_SEED): a decimal integer 1 … FUZZ_SEED_MAX.

/** The largest seed: 2^31 − 1, so every seed is a positive 32-bit integer (what fast-check seeds with). */
const FUZZ_SEED_MAX = 2147483647;

/** The seed `text` spells (decimal digits only, 1 … FUZZ_SEED_MAX), else undefined. */
function parseFuzzSeed(text) {
  if (typeof text !== 'string' || !/^[0-9]{1,10}$/.test(text)) return undefined;
  const seed = Number(text);
  return seed >= 1 && seed <= FUZZ_SEED_MAX ? seed : undefined;
}

/** The seed of a run without `--seed`: the clock folded into 1 … FUZZ_SEED_MAX. */
function fuzzSeedFromClock(nowMs) {
  return 1 + (Math.floor(Math.abs(nowMs)) % FUZZ_SEED_MAX);
}

module.exports = { FUZZ_SEED_MAX, parseFuzzSeed, fuzzSeedFromClock };
