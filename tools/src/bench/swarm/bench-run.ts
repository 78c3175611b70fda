import { chownSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentName, swarmConfig, TMUX_BACKED, type BenchBackend } from './backends';
import { cpuTicksOf, fdUsageOf, rssMibOf, type BenchServer } from './bench-server';
import {
  agentProcessesPss,
  leftoverDirs,
  leftoverProcesses,
  tmuxServerRunning,
  tmuxServersCpu,
  tmuxServerTicks,
  ticksOf,
} from './leftovers';
import { quantile } from './primitives';
import { measureListSwarms, type ListSwarmsResult } from './list-swarms';
import { measureRestPaste, type PasteLatency } from './paste-latency';

const TMUX = '/usr/bin/tmux';
/** How long the harness waits for a swarm to be ready before it reports a failure. */
const READY_TIMEOUT_MS = 600_000;
/** How long it waits for one turn to be dispatched or completed. */
const TURN_TIMEOUT_MS = 30_000;
const CLOCK_TICKS_PER_S = 100;
/** Wait before the idle sample: the outbox fallback poll is at its 120 s cap 8.5 s after the last wake-up. */
const IDLE_SETTLE_MS = 12_000;

export interface RunOptions {
  readonly turns: number;
  readonly idleMs: number;
  readonly listSwarmsMs: number;
  /** Called once every agent is ready (the harness captures the bwrap argv of a live agent here). */
  readonly onUp?: (swarm: string) => Promise<void>;
  /** tmux backends: REST task → the pane reads it, this many samples (0: skip; one agent each, left busy). */
  readonly pasteSamples?: number;
  /** Swarms of `n` agents each, started at once (default 1); turns and the API measure use the first. */
  readonly swarms?: number;
}

export interface LatencyResult {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** One backend at one N. Times in ms unless the name says otherwise. */
export interface RunResult {
  readonly backend: BenchBackend;
  /** Agents per swarm. */
  readonly n: number;
  /** Swarms run at once (absent: 1). Ready, DELETE and leftovers cover all of them. */
  readonly swarms?: number;
  readonly readyMs?: number;
  /** ms per agent in each tenth of the launch, from the agents' `agent_ready` event times (decilesOf). */
  readonly decileMsPerAgent?: readonly number[];
  readonly stopMs?: number;
  /** CPU seconds the server used during the DELETE. */
  readonly stopServerCpuS?: number;
  /** The whole box's CPU during the DELETE, % of all cores. */
  readonly stopBoxCpuPct?: number;
  /** tmux backends: CPU seconds the tmux servers used during the DELETE (sampled every 100 ms until each exits). */
  readonly stopTmuxCpuS?: number;
  readonly leftoverProcesses?: readonly string[];
  readonly tmuxServerLeft?: boolean;
  readonly leftoverDirs?: readonly string[];
  /** Server CPU while the swarm idles, % of one core. */
  readonly idleServerCpuPct?: number;
  /** Whole-box CPU while the swarm idles, % of all cores. */
  readonly idleBoxCpuPct?: number;
  readonly rssMib?: number;
  /** Open descriptors of the server once every agent is ready. */
  readonly serverFds?: number;
  /** …and before the start (the per-agent figure is the difference over the agents). */
  readonly serverFdsBefore?: number;
  /** Host memory of the agents' processes once every agent is ready: their PSS summed, KiB per agent (leftovers.ts). */
  readonly agentPssKibPerAgent?: number;
  /** CPU seconds the server used from the POST until every agent was ready. */
  readonly launchServerCpuS?: number;
  /** tmux backends: tmux servers running once every agent is ready, and the CPU seconds they used by then. */
  readonly tmuxServers?: number;
  readonly launchTmuxCpuS?: number;
  /** inotify watches the server holds once every agent is ready. */
  readonly inotifyWatches?: number;
  readonly receiptToEvent?: LatencyResult;
  readonly listSwarms?: ListSwarmsResult;
  /** tmux backends: `POST …/task` → the agent's pane reads the pasted text. */
  readonly restPaste?: PasteLatency;
  /** tmux backends: a raw control-mode paste into the same panes on the swarm's tmux server, interleaved with restPaste. */
  readonly rawPaste?: PasteLatency;
  /** Raw pastes of that baseline not read in time (the report falls back to the private server's raw paste when none was). */
  readonly rawPasteMissed?: number;
  /** `GET /api/swarms` and `GET /api/swarms/<first>` (what `genswarms status` calls), every 500 ms during the launch. */
  readonly apiDuringLaunch?: LatencyResult;
  /** The server refused the start for a host limit (503 host_limit): nothing was started. */
  readonly hostLimit?: { readonly limit: string; readonly value: number; readonly need: number; readonly fix: string };
  readonly error?: string;
}

interface AgentRow {
  readonly name: string;
  readonly state: string;
  readonly needs_attention?: { readonly reason: string } | null;
  readonly failure?: { readonly code: string; readonly message?: string } | null;
}
interface EventRow {
  readonly id: number;
  readonly timestamp: string;
}
interface TurnRow {
  readonly id: string;
  readonly item_id: string;
  readonly status: string;
  readonly completed_at: string | null;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitReady(server: BenchServer, swarm: string, n: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const res = await server.api<{ agents: AgentRow[] }>('GET', `/api/swarms/${swarm}/agents`);
    const agents = res.body?.agents ?? [];
    const bad = agents.find((a) => a.state === 'failed' || a.state === 'needs_attention');
    if (bad !== undefined) {
      const why = bad.needs_attention?.reason ?? bad.failure?.code;
      throw new Error(
        `agent ${bad.name} is ${bad.state}${why === undefined ? '' : ` (${why}${bad.failure?.message ? `: ${bad.failure.message}` : ''})`}`,
      );
    }
    if (agents.length === n && agents.every((a) => a.state === 'idle')) return;
    if (Date.now() > deadline) throw new Error(`not ready after ${READY_TIMEOUT_MS} ms`);
    await sleep(n >= 1000 ? 1000 : n >= 300 ? 250 : 50); // ready times come from events: polling only adds load
  }
}

/** How often the status probe asks while a launch runs (each probe is the two reads `genswarms status` makes). */
const LAUNCH_PROBE_MS = 500;

/** Probes the status reads until `done` settles; their latencies (a failed read counts as its time too). */
async function probeDuringLaunch(server: BenchServer, swarm: string, done: Promise<unknown>): Promise<LatencyResult> {
  const samples: number[] = [];
  let over = false;
  void done.finally(() => (over = true)).catch(() => undefined); // expected: the launch's own await reports its failure
  while (!over) {
    for (const path of ['/api/swarms', `/api/swarms/${swarm}`]) {
      const t0 = performance.now();
      await server.api('GET', path);
      samples.push(performance.now() - t0);
    }
    await sleep(LAUNCH_PROBE_MS);
  }
  if (samples.length === 0) return { samples: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };
  return { samples: samples.length, p50Ms: quantile(samples, 0.5), p99Ms: quantile(samples, 0.99), maxMs: Math.max(...samples) };
}

/** Epoch ms of every `agent_ready` event of the swarm, oldest first (paged by since_id). */
async function readyTimes(server: BenchServer, swarm: string): Promise<number[]> {
  const out: number[] = [];
  let since = 0;
  for (;;) {
    const q = `event_type=agent_ready&limit=1000&since_id=${since}`;
    const res = await server.api<{ events: EventRow[] }>('GET', `/api/swarms/${swarm}/events?${q}`);
    const events = res.body?.events ?? [];
    for (const e of events) out.push(Date.parse(e.timestamp));
    if (events.length < 1000) return out.sort((a, b) => a - b);
    since = Math.max(...events.map((e) => e.id));
  }
}

/**
 * ms per agent in each tenth of the launch, from the first agent ready on (the gate and planning before
 * the first spawn are not per-agent work): (time the tenth's last agent was ready − the previous tenth's) / its size.
 */
export function decilesOf(readyAt: readonly number[]): number[] {
  const n = readyAt.length;
  if (n < 11) return [];
  const out: number[] = [];
  let prevIdx = 0;
  for (let d = 1; d <= 10; d++) {
    const idx = Math.ceil((d * (n - 1)) / 10);
    out.push(((readyAt[idx] as number) - (readyAt[prevIdx] as number)) / (idx - prevIdx));
    prevIdx = idx;
  }
  return out;
}

/** Writes `name` atomically into a turn directory, owned like the directory (the agent's files are). */
function writeAsAgent(dir: string, name: string, text: string): void {
  const st = statSync(dir);
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
  chownSync(tmp, st.uid, st.gid);
  renameSync(tmp, join(dir, name));
}

async function waitTurn(server: BenchServer, swarm: string, agent: string, pred: (t: TurnRow) => boolean): Promise<TurnRow> {
  const deadline = Date.now() + TURN_TIMEOUT_MS;
  for (;;) {
    const res = await server.api<{ turns: TurnRow[] }>('GET', `/api/swarms/${swarm}/agents/${agent}/turns?limit=1`);
    const t = res.body?.turns?.[0];
    if (t !== undefined && pred(t)) return t;
    if (Date.now() > deadline) throw new Error(`turn of ${agent} did not reach the expected state`);
    await sleep(10);
  }
}

/**
 * One turn: task → the turn is running → the harness writes reply.md then done.json (as a client
 * would, docs/agent.md#3-finishing-a-turn-the-receipt) → the turn's completed_at. Returns completed_at − the done.json rename.
 */
async function oneTurn(server: BenchServer, swarm: string, agent: string): Promise<number> {
  const sent = await server.api<{ id: string }>('POST', `/api/swarms/${swarm}/agents/${agent}/task`, { task: 'bench' });
  if (sent.status !== 200) throw new Error(`task to ${agent}: ${sent.status}`);
  const turn = await waitTurn(server, swarm, agent, (t) => t.item_id === sent.body.id && t.status === 'running');
  const dir = join(server.home, 'workspaces', swarm, agent, '.genswarms', 'turns', turn.id);
  // The turn row is running before delivery; the host creates the directory right before it delivers.
  for (const deadline = Date.now() + TURN_TIMEOUT_MS; !existsSync(dir); await sleep(2)) {
    if (Date.now() > deadline) throw new Error(`no turn directory for ${agent}`);
  }
  writeAsAgent(dir, 'reply.md', 'bench reply\n');
  writeAsAgent(dir, 'done.json', JSON.stringify({ v: 1, turn: turn.id, status: 'ok' }));
  const writtenAt = Date.now();
  const done = await waitTurn(server, swarm, agent, (t) => t.id === turn.id && t.completed_at !== null);
  return Date.parse(done.completed_at as string) - writtenAt;
}

async function measureLatency(server: BenchServer, swarm: string, n: number, turns: number): Promise<LatencyResult> {
  const samples: number[] = [];
  const agents = Array.from({ length: Math.min(n, turns) }, (_, i) => agentName(Math.floor((i * n) / Math.min(n, turns))));
  for (let i = 0; i < turns; i++) samples.push(await oneTurn(server, swarm, agents[i % agents.length] as string));
  return { samples: samples.length, p50Ms: quantile(samples, 0.5), p99Ms: quantile(samples, 0.99), maxMs: Math.max(...samples) };
}

function boxTicks(): { busy: number; total: number } {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { busy: total - idle, total };
}

async function measureIdle(server: BenchServer, idleMs: number): Promise<{ server: number; box: number }> {
  const s0 = cpuTicksOf(server.pid);
  const b0 = boxTicks();
  const t0 = performance.now();
  await sleep(idleMs);
  const s1 = cpuTicksOf(server.pid);
  const b1 = boxTicks();
  const seconds = (performance.now() - t0) / 1000;
  return { server: ((s1 - s0) / CLOCK_TICKS_PER_S / seconds) * 100, box: ((b1.busy - b0.busy) / Math.max(1, b1.total - b0.total)) * 100 };
}

/** How often the tmux servers' CPU is sampled during a DELETE (a server that exits keeps its last sample). */
const STOP_SAMPLE_MS = 100;

interface Deleted {
  readonly ms: number;
  readonly failed: string[];
  readonly serverCpuS: number;
  /** The whole box's CPU during the DELETE, % of all cores. */
  readonly boxCpuPct: number;
  /** Only when `tmux` was asked: the tmux servers' CPU seconds during the DELETE. */
  readonly tmuxCpuS?: number;
}

/** DELETE ?purge=true of every swarm at once; ms until the last answered, the statuses that were not 200, CPU meanwhile. */
async function deleteAll(server: BenchServer, swarms: readonly string[], tmux = false): Promise<Deleted> {
  const first = tmux ? tmuxServerTicks(server.home, server.pid) : new Map<number, number>();
  const last = new Map(first);
  const sample = (): void => {
    for (const [pid, t] of ticksOf(first.keys())) last.set(pid, t);
  };
  const sampler = tmux ? setInterval(sample, STOP_SAMPLE_MS) : undefined;
  const ticks0 = cpuTicksOf(server.pid);
  const box0 = boxTicks();
  const s0 = performance.now();
  const answers = await Promise.all(swarms.map((s) => server.api('DELETE', `/api/swarms/${s}?purge=true`)));
  const ms = performance.now() - s0;
  const serverCpuS = (cpuTicksOf(server.pid) - ticks0) / CLOCK_TICKS_PER_S;
  const box1 = boxTicks();
  const boxCpuPct = ((box1.busy - box0.busy) / Math.max(1, box1.total - box0.total)) * 100;
  clearInterval(sampler);
  const failed = answers.flatMap((a, i) => (a.status === 200 ? [] : [`DELETE ${swarms[i]}: ${a.status}`]));
  if (!tmux) return { ms, failed, serverCpuS, boxCpuPct };
  sample();
  let ticks = 0;
  for (const [pid, t] of last) ticks += t - (first.get(pid) ?? t);
  return { ms, failed, serverCpuS, boxCpuPct, tmuxCpuS: ticks / CLOCK_TICKS_PER_S };
}

/** The limit of a 503 host_limit answer (the server refused the start before creating anything), else undefined. */
export function hostLimitOf(answer: { status: number; body: unknown }): RunResult['hostLimit'] {
  const b = answer.body as Record<string, unknown> | undefined;
  if (answer.status !== 503 || b?.['error'] !== 'host_limit') return undefined;
  const { limit, value, need, fix } = b;
  if (typeof limit !== 'string' || typeof value !== 'number' || typeof need !== 'number' || typeof fix !== 'string') return undefined;
  return { limit, value, need, fix };
}

/** Launch (K swarms at once with `swarms`), measure while up, DELETE ?purge=true, check what is left. */
export async function runOne(server: BenchServer, backend: BenchBackend, n: number, opts: RunOptions): Promise<RunResult> {
  const k = Math.max(1, opts.swarms ?? 1);
  const stem = `b-${backend}-${n}-${Date.now().toString(36)}`;
  const names = Array.from({ length: k }, (_, i) => (k === 1 ? stem : `${stem}-s${i}`));
  const swarm = names[0] as string;
  const base = k === 1 ? { backend, n } : { backend, n, swarms: k };
  const fds0 = fdUsageOf(server.pid).fds;
  const t0 = Date.now();
  const ticks0 = cpuTicksOf(server.pid);
  const posting = Promise.all(names.map((s) => server.api('POST', '/api/swarms', { config: swarmConfig(backend, s, n) })));
  let launched: (value: unknown) => void = () => undefined;
  const launchOver = new Promise((resolve) => (launched = resolve));
  // a start answers once its agents are planned and spawned: the reads are probed from the POST on
  const probe = probeDuringLaunch(server, swarm, launchOver);
  const posts = await posting.catch(async (e: unknown) => {
    launched(undefined);
    await probe;
    throw e;
  });
  const started = names.filter((_, i) => posts[i]?.status === 201);
  const refused = posts.find((p) => p.status !== 201);
  if (refused !== undefined) {
    launched(undefined);
    await probe;
    const cleanup = await deleteAll(server, started);
    const hostLimit = hostLimitOf(refused);
    const error =
      hostLimit === undefined
        ? `POST /api/swarms ${refused.status}: ${JSON.stringify(refused.body).slice(0, 300)}`
        : `host_limit: ${hostLimit.limit} is ${hostLimit.value}, the start needs ${hostLimit.need}; raise it: ${hostLimit.fix}`;
    return { ...base, ...(hostLimit === undefined ? {} : { hostLimit }), error, stopMs: cleanup.ms };
  }
  let result: RunResult = base;
  try {
    await Promise.all(names.map((s) => waitReady(server, s, n))).finally(() => launched(undefined));
    result = { ...result, apiDuringLaunch: await probe };
    const launchTicks = cpuTicksOf(server.pid) - ticks0;
    const tmuxCpu = TMUX_BACKED.has(backend) ? tmuxServersCpu(server.home, server.pid) : undefined;
    const times = (await Promise.all(names.map((s) => readyTimes(server, s)))).flat().sort((a, b) => a - b);
    const usage = fdUsageOf(server.pid);
    result = {
      ...result,
      readyMs: Math.max(...times) - t0,
      launchServerCpuS: launchTicks / CLOCK_TICKS_PER_S,
      ...(tmuxCpu === undefined ? {} : { tmuxServers: tmuxCpu.servers, launchTmuxCpuS: tmuxCpu.ticks / CLOCK_TICKS_PER_S }),
      decileMsPerAgent: decilesOf(times),
      rssMib: rssMibOf(server.pid),
      serverFds: usage.fds,
      serverFdsBefore: fds0,
      inotifyWatches: usage.inotifyWatches,
      ...(backend === 'mock' ? {} : { agentPssKibPerAgent: Math.round(agentProcessesPss(server.pid, server.home).kib / (n * k)) }),
    };
    await opts.onUp?.(swarm);
    if (backend !== 'mock' && opts.turns > 0) result = { ...result, receiptToEvent: await measureLatency(server, swarm, n, opts.turns) };
    if (opts.idleMs > 0) {
      // the last turn's routing, and the outbox poll's backoff (500 ms → 8 s → 120 s), settle; a sample under 1 s (the
      // correctness smoke) measures nothing worth the wait
      if (opts.idleMs >= 1000) await sleep(IDLE_SETTLE_MS);
      const idle = await measureIdle(server, opts.idleMs);
      result = { ...result, idleServerCpuPct: idle.server, idleBoxCpuPct: idle.box };
    }
    if (opts.listSwarmsMs > 0) result = { ...result, listSwarms: await measureListSwarms(server, opts.listSwarmsMs) };
    // last: each sample leaves its agent's turn running
    if (TMUX_BACKED.has(backend) && (opts.pasteSamples ?? 0) > 0) {
      const pastes = await measureRestPaste(server, swarm, n, opts.pasteSamples ?? 0, TMUX);
      const raw = pastes.raw === undefined || pastes.raw.samples === 0 ? {} : { rawPaste: pastes.raw };
      result = {
        ...result,
        restPaste: pastes.rest,
        ...raw,
        ...(pastes.rawMissed === undefined ? {} : { rawPasteMissed: pastes.rawMissed }),
      };
    }
  } catch (err) {
    result = { ...result, error: err instanceof Error ? err.message : String(err) };
  }
  const del = await deleteAll(server, names, TMUX_BACKED.has(backend));
  if (del.failed.length > 0) return { ...result, error: del.failed.join('; ') };
  return {
    ...result,
    stopMs: del.ms,
    stopServerCpuS: del.serverCpuS,
    stopBoxCpuPct: del.boxCpuPct,
    ...(del.tmuxCpuS === undefined ? {} : { stopTmuxCpuS: del.tmuxCpuS }),
    leftoverProcesses: names.flatMap((s) => leftoverProcesses(server.pid, server.home, s)),
    tmuxServerLeft: tmuxServerRunning(server.home),
    leftoverDirs: names.flatMap((s) => leftoverDirs(server.home, s)),
  };
}
