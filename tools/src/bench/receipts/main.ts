/**
 * CLI entry of the receipts benchmark. Run: `npx nx build tools && node tools/dist/bench/receipts/main.js [turns]`.
 * Prints p50/p90/p99/max of watchTurn and of a raw fs.watch+readFile baseline, and the ratio.
 */
import { RECEIPT_LATENCY_TARGET_P50_MS, RECEIPT_LATENCY_TARGET_P99_MS, runReceiptsBench } from './bench-receipts';

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? '500');
  if (!Number.isInteger(turns) || turns < 1) throw new Error('usage: main.js [turns>0]');
  const result = await runReceiptsBench({ turns });
  const row = (name: string, s: { p50: number; p90: number; p99: number; max: number }): string =>
    `${name.padEnd(10)} p50 ${s.p50.toFixed(3)} ms  p90 ${s.p90.toFixed(3)} ms  p99 ${s.p99.toFixed(3)} ms  max ${s.max.toFixed(3)} ms`;
  process.stdout.write(`receipts bench: ${result.turns} turns (done.json rename -> result)\n`);
  process.stdout.write(`${row('watchTurn', result.watchTurn)}\n${row('baseline', result.baseline)}\n`);
  process.stdout.write(`ratio      p50 ${result.ratio.p50.toFixed(2)}x  p99 ${result.ratio.p99.toFixed(2)}x\n`);
  process.stdout.write(
    `target     p50 <= ${RECEIPT_LATENCY_TARGET_P50_MS} ms, p99 <= ${RECEIPT_LATENCY_TARGET_P99_MS} ms: ${result.meetsTarget ? 'MET' : 'MISSED'}\n`,
  );
  process.exitCode = result.meetsTarget ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
