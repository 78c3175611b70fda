/**
 * `node tools/dist/bench/markers/main.js [--min-sample-ms N]` (after `npx nx build tools`).
 * Prints extractMarkers time and MB/s for 64 KiB / 256 KiB / 1 MiB reply.md inputs (prose with a few
 * markers, repeated unterminated TO / BROADCAST starts, invalid headers), against an indexOf baseline
 * over the same string measured in the same run. Exit 1 when a parse exceeds the budget.
 */
import { formatMarkersBench, runMarkersBench } from './bench-markers';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

function main(): void {
  const minSampleMs = Number(flag('--min-sample-ms', '200'));
  if (!Number.isInteger(minSampleMs) || minSampleMs < 0) {
    process.stderr.write('usage: main.js [--min-sample-ms N>=0]\n');
    process.exitCode = 2;
    return;
  }
  const result = runMarkersBench({ minSampleMs });
  process.stdout.write(`markers bench: extractMarkers vs indexOf scan (median of runs, MB = 10^6 bytes)\n${formatMarkersBench(result)}\n`);
  process.exitCode = result.withinBudget ? 0 : 1;
}

try {
  main();
} catch (err: unknown) {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
