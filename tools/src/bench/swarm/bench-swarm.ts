import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { REPO_ROOT } from '../../build-once/build-once';
import { TMUX_BIN, TMUX_BACKED, unavailableReason, type BenchBackend } from './backends';
import { runOne, type RunResult } from './bench-run';
import { cpuTicksOf, SERVER_MAIN, startBenchServer } from './bench-server';
import { measureRing, type RingClients, type RingResult } from './ring';
import { capturedBwrapArgv, measureTmuxPrimitives, RAW_PASTE_SAMPLES, timeCommand, timeCommandParallel } from './primitives';
import type { BenchReport, Machine, Primitives } from './report';

export interface BenchOptions {
  readonly ns: readonly number[];
  readonly backends: readonly BenchBackend[];
  /** Turns per run for the receipt → event latency (0: skip). */
  readonly turns: number;
  readonly idleMs: number;
  readonly listSwarmsMs: number;
  /** How long the ring of mock agents routes messages (0: skip). */
  readonly ringMs?: number;
  /** Who forwards the ring's messages: mock agents (default) or bash clients on the local backend. */
  readonly ringClients?: RingClients;
  /** Messages circulating in the ring at once (default DEFAULT_RING_TOKENS). */
  readonly ringTokens?: number;
  /** tmux backends: REST task → pane read samples per run (default RAW_PASTE_SAMPLES; 0 skips). */
  readonly pasteSamples?: number;
  /** Swarms of N agents run at once per backend and N (default 1). */
  readonly swarms?: number;
  /** Measure the raw primitives (bwrap, tmux) in this run. */
  readonly primitives: boolean;
  /** Node flags for the server (e.g. `--cpu-prof`). */
  readonly serverNodeFlags?: readonly string[];
  /** Another server build to run (a before/after comparison); default apps/server/dist/main.js. */
  readonly serverMain?: string;
  readonly log?: (line: string) => void;
  /** Called after each run with every run so far (the CLI keeps a partial results file). */
  readonly onRun?: (runs: readonly RunResult[]) => void;
}

export const DEFAULT_NS: readonly number[] = [10, 100, 300, 1000];
/** Runs of the bwrap primitive (sequential, median). */
const BWRAP_PRIMITIVE_RUNS = 20;
/** Runs of the parallel raw sandbox, and how many at once (the engine's launch bound on this box: max(4, 2 × cores)). */
const BWRAP_PARALLEL_RUNS = 100;
const BWRAP_PARALLEL = Math.max(4, 2 * availableParallelism());

function gitCommit(): string {
  const r = spawnSync('/usr/bin/git', ['-C', REPO_ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

export function machine(): Machine {
  return { cores: cpus().length, memGiB: totalmem() / 2 ** 30, kernel: release(), node: process.versions.node };
}

/**
 * The whole harness: one real server; per available backend and N, launch → measure → DELETE
 * ?purge=true → leftovers; the raw primitives in the same run.
 */
export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const log = opts.log ?? (() => undefined);
  const skipped: { backend: BenchBackend; reason: string }[] = [];
  const backends = opts.backends.filter((b) => {
    const reason = unavailableReason(b);
    if (reason !== undefined) skipped.push({ backend: b, reason });
    return reason === undefined;
  });
  let primitives: Primitives = {};
  const maxN = Math.max(...opts.ns);
  if (opts.primitives && backends.some((b) => TMUX_BACKED.has(b))) {
    log(`primitives: tmux with ${maxN} panes`);
    primitives = { ...primitives, tmux: await measureTmuxPrimitives(TMUX_BIN, maxN) };
  }
  const loadAtStart = loadavg()[0] as number;
  const server = await startBenchServer({
    maxAgents: Math.max(maxN, 100),
    ...(opts.serverMain === undefined ? {} : { serverMain: opts.serverMain }),
    ...(opts.serverNodeFlags === undefined ? {} : { nodeFlags: opts.serverNodeFlags }),
  });
  const runs: RunResult[] = [];
  let ring: RingResult | undefined;
  try {
    for (const backend of backends) {
      for (const n of opts.ns) {
        log(`run: ${backend} N=${n}${(opts.swarms ?? 1) > 1 ? ` × ${opts.swarms} swarms` : ''}`);
        const wantBwrap = opts.primitives && primitives.bwrapMs === undefined && (backend === 'bwrap' || backend === 'tmux-bwrap');
        const onUp = async (swarm: string): Promise<void> => {
          primitives = await bwrapPrimitive(swarm, server.home, primitives).catch((err: unknown) => {
            log(`  bwrap primitive failed: ${err instanceof Error ? err.message : String(err)}`);
            return primitives;
          });
        };
        const r = await runOne(server, backend, n, {
          turns: opts.turns,
          idleMs: opts.idleMs,
          listSwarmsMs: opts.listSwarmsMs,
          swarms: opts.swarms ?? 1,
          pasteSamples: opts.pasteSamples ?? RAW_PASTE_SAMPLES,
          ...(wantBwrap ? { onUp } : {}),
        }).catch((err: unknown): RunResult => ({ backend, n, error: err instanceof Error ? err.message : String(err) }));
        log(`  ${JSON.stringify(r)}`);
        runs.push(r);
        opts.onRun?.(runs);
      }
    }
    if ((opts.ringMs ?? 0) > 0) {
      log(`run: ring of ${opts.ringClients ?? 'mock'} agents`);
      ring = await measureRing(server, opts.ringMs ?? 0, () => cpuTicksOf(server.pid), opts.ringClients, opts.ringTokens).catch(
        (err: unknown) => {
          log(`  ring failed: ${err instanceof Error ? err.message : String(err)}`);
          return undefined;
        },
      );
      log(`  ${JSON.stringify(ring)}`);
    }
  } finally {
    await server.stop();
  }
  return {
    date: new Date().toISOString(),
    commit: gitCommit(),
    server: opts.serverMain ?? SERVER_MAIN,
    machine: machine(),
    ns: opts.ns,
    ...((opts.swarms ?? 1) > 1 ? { swarms: opts.swarms } : {}),
    skipped,
    loadAverage: { start: loadAtStart, end: loadavg()[0] as number },
    primitives,
    runs,
    ...(ring === undefined ? {} : { ring }),
  };
}

async function bwrapPrimitive(swarm: string, home: string, p: Primitives): Promise<Primitives> {
  const filterDir = mkdtempSync(join(tmpdir(), 'gs-bench-filter-'));
  chmodSync(filterDir, 0o755); // the agent uid reads the filter copy
  try {
    const argv = capturedBwrapArgv(swarm, home, filterDir);
    if (argv === undefined) return p;
    const bwrapMs = await timeCommand(argv, BWRAP_PRIMITIVE_RUNS);
    const parallelMs = await timeCommandParallel(argv, BWRAP_PARALLEL_RUNS, BWRAP_PARALLEL);
    return { ...p, bwrapMs, bwrapParallel: { msPerRun: parallelMs, inFlight: BWRAP_PARALLEL }, bwrapArgv: argv };
  } finally {
    rmSync(filterDir, { recursive: true, force: true });
  }
}
