import { FUZZ_SEED_MAX, parseFuzzSeed } from '../../reliability/fuzz-seed.cjs';

/** Inputs per target in `npm test` (the fast subset); `npm run fuzz` sets GENSWARMS_FUZZ_COUNT (default 100,000). */
export const FUZZ_FAST_COUNT = 300;
/**
 * Per-input CPU-time limit in `npm test`: generous, because the CI box is loaded and a GC pause is not a
 * hang. The full run (`npm run fuzz`) sets GENSWARMS_FUZZ_HANG_MS=1000, the criterion of
 * docs/reliability.md; the wall-time limit is 10× the CPU limit unless GENSWARMS_FUZZ_WALL_MS says otherwise.
 */
export const FUZZ_FAST_HANG_MS = 10_000;

/** How a fuzz spec runs: from the environment `npm run fuzz` sets, else the fast subset. */
export interface FuzzSettings {
  readonly count: number;
  readonly seed: number;
  /** Per-input CPU-time limit (ms). */
  readonly hangMs: number;
  /** Per-input wall-time limit (ms): an input still waiting after this long is a hang. */
  readonly wallMs: number;
  /** Where the spec writes `<target>.json` (set by `npm run fuzz` only; `npm test` writes nothing). */
  readonly resultsDir: string | undefined;
  /** Where failing cases are saved; default tools/fuzz/regressions (specs of the harness pass a temp dir). */
  readonly regressionsDir?: string;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9]{1,9}$/.test(raw)) throw new Error(`${name} must be a positive integer`);
  return Number(raw);
}

/** GENSWARMS_FUZZ_SEED under the rule `npm run fuzz` chooses its seeds by (tools/reliability/fuzz-seed.cjs). */
function seedFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['GENSWARMS_FUZZ_SEED'];
  if (raw === undefined || raw === '') return undefined;
  const seed = parseFuzzSeed(raw);
  if (seed === undefined) throw new Error(`GENSWARMS_FUZZ_SEED must be an integer 1 … ${FUZZ_SEED_MAX}`);
  return seed;
}

/** Reads GENSWARMS_FUZZ_COUNT, _SEED, _HANG_MS, _WALL_MS and _RESULTS_DIR. The fast subset's seed is fixed (reproducible CI). */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  return {
    count: intFromEnv(env, 'GENSWARMS_FUZZ_COUNT') ?? FUZZ_FAST_COUNT,
    seed: seedFromEnv(env) ?? 19,
    hangMs: intFromEnv(env, 'GENSWARMS_FUZZ_HANG_MS') ?? FUZZ_FAST_HANG_MS,
    wallMs: intFromEnv(env, 'GENSWARMS_FUZZ_WALL_MS') ?? 10 * (intFromEnv(env, 'GENSWARMS_FUZZ_HANG_MS') ?? FUZZ_FAST_HANG_MS),
    resultsDir: env['GENSWARMS_FUZZ_RESULTS_DIR'] || undefined,
  };
}
