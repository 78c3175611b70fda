import { extractMarkers } from '@genswarms/engine';

/** reply.md sizes measured, in bytes (the reply bound is 1 MiB). */
export const MARKERS_BENCH_SIZES_BYTES: readonly number[] = Object.freeze([64 * 1024, 256 * 1024, 1024 * 1024]);
/** Guard for the linear parser: any input up to 1 MiB must parse within this (the quadratic one took 35-65 s). */
export const MARKERS_PARSE_BUDGET_MS = 1000;
/** Each measurement repeats until it has run at least this long (and at least MIN_RUNS times); the median run is kept. */
const MIN_SAMPLE_MS = 200;
const MIN_RUNS = 5;
const MAX_RUNS = 2000;

export type MarkersInputKind = 'prose' | 'unterminated-to' | 'unterminated-broadcast' | 'invalid-headers';

export const MARKERS_INPUT_KINDS: readonly MarkersInputKind[] = Object.freeze([
  'prose',
  'unterminated-to',
  'unterminated-broadcast',
  'invalid-headers',
]);

const PROSE_LINE = 'The critic read the draft again and found two claims without a source; the writer agreed to fix them.\n';
const PROSE_BLOCK = '<<SWARM_MSG:TO=critic:START>>\nPlease re-check section 2.\n<<SWARM_MSG:END>>\n';
/** One marker block per this many bytes of prose ("a few markers": 4 in 64 KiB, 64 in 1 MiB). */
const PROSE_BLOCK_EVERY_BYTES = 16 * 1024;
const UNIT: Record<Exclude<MarkersInputKind, 'prose'>, string> = {
  'unterminated-to': '<<SWARM_MSG:TO=x:START>>',
  'unterminated-broadcast': '<<SWARM_MSG:BROADCAST:START>>',
  // A marker prefix whose header never matches: the regex runs at every occurrence.
  'invalid-headers': '<<SWARM_MSG:TO=-bad:START>>',
};

/** An ASCII reply.md of exactly `bytes` bytes of the given shape. */
export function makeMarkersInput(kind: MarkersInputKind, bytes: number): string {
  if (kind !== 'prose') return UNIT[kind].repeat(Math.ceil(bytes / UNIT[kind].length)).slice(0, bytes);
  const parts: string[] = [];
  let length = 0;
  let nextBlockAt = PROSE_BLOCK_EVERY_BYTES / 2;
  while (length < bytes) {
    const piece = length >= nextBlockAt ? PROSE_BLOCK : PROSE_LINE;
    if (piece === PROSE_BLOCK) nextBlockAt += PROSE_BLOCK_EVERY_BYTES;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('').slice(0, bytes);
}

export interface MarkersBenchRow {
  readonly kind: MarkersInputKind;
  readonly bytes: number;
  /** Blocks extractMarkers found (sanity: prose has a few, the hostile shapes none). */
  readonly blocks: number;
  /** Median extractMarkers time, ms. */
  readonly parseMs: number;
  readonly parseMBps: number;
  /** Median raw baseline (an indexOf scan for the marker prefix over the same string), ms. */
  readonly baselineMs: number;
  readonly baselineMBps: number;
  /** parseMs / baselineMs. */
  readonly ratio: number;
}

export interface MarkersBenchResult {
  readonly rows: readonly MarkersBenchRow[];
  /** Every parse within MARKERS_PARSE_BUDGET_MS. */
  readonly withinBudget: boolean;
}

export interface MarkersBenchOptions {
  readonly sizes?: readonly number[];
  readonly kinds?: readonly MarkersInputKind[];
  /** Minimum measured time per figure, ms (default 200). */
  readonly minSampleMs?: number;
}

/** Measures extractMarkers against the raw indexOf baseline, both on the same string in the same run. */
export function runMarkersBench(opts: MarkersBenchOptions = {}): MarkersBenchResult {
  const sizes = opts.sizes ?? MARKERS_BENCH_SIZES_BYTES;
  const kinds = opts.kinds ?? MARKERS_INPUT_KINDS;
  const minSampleMs = opts.minSampleMs ?? MIN_SAMPLE_MS;
  const rows: MarkersBenchRow[] = [];
  for (const kind of kinds) {
    for (const bytes of sizes) rows.push(measureRow(kind, bytes, minSampleMs));
  }
  return { rows, withinBudget: rows.every((r) => r.parseMs <= MARKERS_PARSE_BUDGET_MS) };
}

function measureRow(kind: MarkersInputKind, bytes: number, minSampleMs: number): MarkersBenchRow {
  const text = makeMarkersInput(kind, bytes);
  const blocks = extractMarkers(text).blocks.length;
  let sink = 0;
  const parseMs = medianMs(() => (sink += extractMarkers(text).replyText.length), minSampleMs);
  const baselineMs = medianMs(() => (sink += countPrefixes(text)), minSampleMs);
  if (sink < 0) throw new Error('unreachable');
  return {
    kind,
    bytes,
    blocks,
    parseMs,
    parseMBps: mbps(bytes, parseMs),
    baselineMs,
    baselineMBps: mbps(bytes, baselineMs),
    ratio: parseMs / baselineMs,
  };
}

/** The raw floor any marker parser pays: one indexOf pass over the text for the marker prefix. */
export function countPrefixes(text: string): number {
  let count = 0;
  for (let at = text.indexOf('<<SWARM_MSG:'); at >= 0; at = text.indexOf('<<SWARM_MSG:', at + 1)) count++;
  return count;
}

/** One warm-up, then runs until both MIN_RUNS and `minSampleMs` are reached; returns the median run in ms. */
function medianMs(run: () => void, minSampleMs: number): number {
  run();
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  while (samples.length < MAX_RUNS && (samples.length < MIN_RUNS || Number(process.hrtime.bigint() - started) / 1e6 < minSampleMs)) {
    const t0 = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

function mbps(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : Number.POSITIVE_INFINITY;
}

/** A fixed-width table for the terminal. */
export function formatMarkersBench(result: MarkersBenchResult): string {
  const head = `${'input'.padEnd(24)}${'size'.padStart(9)}${'blocks'.padStart(8)}${'parse ms'.padStart(11)}${'MB/s'.padStart(9)}${'indexOf ms'.padStart(12)}${'MB/s'.padStart(9)}${'ratio'.padStart(9)}`;
  const lines = result.rows.map(
    (r) =>
      `${r.kind.padEnd(24)}${`${r.bytes / 1024} KiB`.padStart(9)}${String(r.blocks).padStart(8)}${r.parseMs.toFixed(3).padStart(11)}${r.parseMBps.toFixed(0).padStart(9)}` +
      `${r.baselineMs.toFixed(3).padStart(12)}${r.baselineMBps.toFixed(0).padStart(9)}${`${r.ratio.toFixed(2)}x`.padStart(9)}`,
  );
  const verdict = `budget: every parse <= ${MARKERS_PARSE_BUDGET_MS} ms: ${result.withinBudget ? 'MET' : 'MISSED'}`;
  return [head, ...lines, verdict].join('\n');
}
