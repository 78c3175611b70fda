import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describeError, runOneInput, StrayErrors } from './fuzz-target';
import type { FuzzTarget } from './fuzz-target';
import { loadFuzzRegressions, saveFuzzRegression } from './fuzz-regressions';
import { fuzzSettings } from './fuzz-settings';
import type { FuzzSettings } from './fuzz-settings';

/** What one run of a target measured (written as `<resultsDir>/<target>.json` by `npm run fuzz`). */
export interface FuzzReport {
  readonly target: string;
  readonly seed: number;
  readonly count: number;
  /** Generated inputs run (the failing one included; shrink attempts excluded). */
  readonly inputs: number;
  readonly seconds: number;
  /** 0, or 1: fast-check stops at the first failure and shrinks it. */
  readonly failures: number;
  /** Slowest input in wall time, and the most CPU time one input took (the criterion: < hangMs). */
  readonly maxInputMs: number;
  readonly maxInputCpuMs: number;
  readonly hangMs: number;
  readonly wallMs: number;
  /** The shrunk failing case, saved under tools/fuzz/regressions/<target>/. */
  readonly failure?: { readonly error: string; readonly file: string };
}

/**
 * Runs `settings.count` generated inputs through the target, each under a per-input timer, listening for
 * uncaught exceptions and unhandled rejections. A failure is shrunk by fast-check and saved as a regression
 * fixture; the report says so (the caller asserts `failures === 0`).
 */
export async function runFuzzTarget<T>(target: FuzzTarget<T>, settings: FuzzSettings = fuzzSettings()): Promise<FuzzReport> {
  const strays = new StrayErrors();
  let maxInputMs = 0;
  let maxInputCpuMs = 0;
  const property = fc.asyncProperty(target.arbitrary, async (input) => {
    const cost = await runOneInput(target, input, settings.hangMs, strays, settings.wallMs);
    maxInputMs = Math.max(maxInputMs, cost.wallMs);
    maxInputCpuMs = Math.max(maxInputCpuMs, cost.cpuMs);
  });
  const started = performance.now();
  strays.listen();
  let details: fc.RunDetails<[T]>;
  try {
    details = await fc.check(property, { numRuns: settings.count, seed: settings.seed, endOnFailure: false });
  } finally {
    strays.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const base = {
    target: target.name,
    seed: settings.seed,
    count: settings.count,
    inputs: details.numRuns,
    seconds,
    maxInputMs,
    maxInputCpuMs,
  };
  let report: FuzzReport = { ...base, failures: 0, hangMs: settings.hangMs, wallMs: settings.wallMs };
  if (details.failed && details.counterexample !== null) {
    const error = describeError(details.errorInstance);
    const file = saveFuzzRegression(
      target.name,
      {
        seed: settings.seed,
        path: details.counterexamplePath ?? '',
        error,
        input: details.counterexample[0],
      },
      settings.regressionsDir,
    );
    report = { ...report, failures: 1, failure: { error, file } };
  } else if (details.failed) {
    report = { ...report, failures: 1, failure: { error: describeError(details.errorInstance), file: '' } };
  }
  if (settings.resultsDir !== undefined) {
    mkdirSync(settings.resultsDir, { recursive: true });
    writeFileSync(join(settings.resultsDir, `${target.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

/** Replays every saved failing case of the target through the same per-input check; returns the failures. */
export async function replayFuzzRegressions<T>(target: FuzzTarget<T>, hangMs = fuzzSettings().hangMs, root?: string): Promise<string[]> {
  const failures: string[] = [];
  const strays = new StrayErrors();
  strays.listen();
  try {
    for (const { file, input } of loadFuzzRegressions(target.name, root)) {
      await runOneInput(target, input as T, hangMs, strays, hangMs * 10).catch((error: unknown) =>
        failures.push(`${file}: ${describeError(error)}`),
      );
    }
  } finally {
    strays.stop();
  }
  return failures;
}
