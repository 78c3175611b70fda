/** The largest seed: 2^31 − 1 (every seed is a positive 32-bit integer). */
export declare const FUZZ_SEED_MAX: number;
/** The seed `text` spells (decimal digits only, 1 … FUZZ_SEED_MAX), else undefined. */
export declare function parseFuzzSeed(text: string | undefined): number | undefined;
/** The seed of a run without `--seed`: the clock folded into 1 … FUZZ_SEED_MAX. */
export declare function fuzzSeedFromClock(nowMs: number): number;
