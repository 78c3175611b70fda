import type { FSWatcher } from 'node:fs';
import { watch } from 'node:fs';
import { mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newTurnId, prepareTurnDir, watchTurn } from '@genswarms/receipts';

/** Issue targets for completion latency (done.json rename → watchTurn result), in milliseconds. */
export const RECEIPT_LATENCY_TARGET_P50_MS = 10;
export const RECEIPT_LATENCY_TARGET_P99_MS = 50;

export interface ReceiptsBenchOptions {
  /** Number of turns measured for each of the two paths (default 500). */
  readonly turns?: number;
  /** Idle time between starting a watch and completing the turn, in ms (default 20): the watch is armed, as in production. */
  readonly armMs?: number;
}

export interface LatencyStats {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export interface ReceiptsBenchResult {
  readonly turns: number;
  /** watchTurn: rename of done.json → resolved receipt (all receipt checks). */
  readonly watchTurn: LatencyStats;
  /** Raw baseline: bare fs.watch + readFile of both files after the rename, no checks. */
  readonly baseline: LatencyStats;
  /** watchTurn / baseline, per percentile. */
  readonly ratio: { readonly p50: number; readonly p99: number };
  readonly meetsTarget: boolean;
}

/** Measures completion latency of watchTurn against a raw fs.watch+readFile baseline, interleaved per turn. */
export async function runReceiptsBench(opts: ReceiptsBenchOptions = {}): Promise<ReceiptsBenchResult> {
  const turns = opts.turns ?? 500;
  const armMs = opts.armMs ?? 20;
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'bench-receipts-')));
  const watched: number[] = [];
  const raw: number[] = [];
  try {
    for (let i = 0; i < turns; i++) {
      watched.push(await measureWatchTurn(workspace, armMs));
      raw.push(await measureBaseline(workspace, armMs));
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
  const watchStats = summarize(watched);
  const baseStats = summarize(raw);
  return {
    turns,
    watchTurn: watchStats,
    baseline: baseStats,
    ratio: { p50: watchStats.p50 / baseStats.p50, p99: watchStats.p99 / baseStats.p99 },
    meetsTarget: watchStats.p50 <= RECEIPT_LATENCY_TARGET_P50_MS && watchStats.p99 <= RECEIPT_LATENCY_TARGET_P99_MS,
  };
}

async function completeTurn(dir: string, turnId: string): Promise<bigint> {
  await writeFile(join(dir, 'reply.md.tmp'), `reply for ${turnId}\n`);
  await rename(join(dir, 'reply.md.tmp'), join(dir, 'reply.md'));
  await writeFile(join(dir, 'done.json.tmp'), JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
  const start = process.hrtime.bigint();
  await rename(join(dir, 'done.json.tmp'), join(dir, 'done.json'));
  return start;
}

async function measureWatchTurn(workspace: string, armMs: number): Promise<number> {
  const turnId = newTurnId();
  const prepared = await prepareTurnDir(workspace, turnId);
  if (prepared.kind !== 'ok') throw new Error(`bench: prepareTurnDir refused (${prepared.reason})`);
  const watching = watchTurn(workspace, turnId);
  await sleep(armMs);
  const start = await completeTurn(prepared.dir, turnId);
  const receipt = await watching;
  const end = process.hrtime.bigint();
  if (receipt.kind !== 'ok') throw new Error(`bench: unexpected receipt ${JSON.stringify(receipt)}`);
  return Number(end - start) / 1e6;
}

async function measureBaseline(workspace: string, armMs: number): Promise<number> {
  const turnId = newTurnId();
  const prepared = await prepareTurnDir(workspace, turnId);
  if (prepared.kind !== 'ok') throw new Error(`bench: prepareTurnDir refused (${prepared.reason})`);
  const dir = prepared.dir;
  let watcher: FSWatcher | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const check = (): void => {
      readFile(join(dir, 'done.json'))
        .then(() => readFile(join(dir, 'reply.md')))
        .then(
          () => resolve(),
          (error: { code?: string }) => (error.code === 'ENOENT' ? undefined : reject(error)),
        );
    };
    watcher = watch(dir, () => check());
  });
  await sleep(armMs);
  const start = await completeTurn(dir, turnId);
  await done;
  const end = process.hrtime.bigint();
  watcher?.close();
  return Number(end - start) / 1e6;
}

/** Nearest-rank percentiles, in ms rounded to 0.001. */
export function summarize(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => {
    const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
    return Math.round(value * 1000) / 1000;
  };
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}
