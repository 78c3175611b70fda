import type { BenchBackend } from './backends';
import { SANDBOXED } from './backends';
import type { RunResult } from './bench-run';
import type { TmuxPrimitives } from './primitives';
import type { RingResult } from './ring';

/** The goals of docs/benchmarks.md. Absolute ones apply at N ≥ GOAL_N. */
export const GOALS = {
  readyMaxMs: 15_000,
  stopMaxMs: 10_000,
  flatMaxRatio: 1.3,
  rawMaxRatio: 1.5,
  idleMaxPct: 1,
  p50MaxMs: 10,
  p99MaxMs: 50,
  statusDuringLaunchP99Ms: 100,
  listMinRatio: 0.8,
  pasteMaxOverRawMs: 2,
  ringMinPerS: 2000,
  rssMaxMib: 300,
  /** Host memory per idle sandboxed agent (its processes' PSS), MB. */
  agentMaxMb: 1.5,
} as const;
/** The N the absolute launch/stop goals are set for. */
export const GOAL_N = 1000;
/** At this many agents in a run (N × swarms) the scale goals replace the N = 1,000 ones. */
export const SCALE_GOAL_AGENTS = 10_000;
/** The goals of 10,000 agents (docs/benchmarks.md): the launch, stop and memory bounds that differ. */
export const SCALE_GOALS = {
  readyMaxMs: 90_000,
  stopMaxMs: 20_000,
  rawMaxRatio: 1.2,
  rssMaxMib: 1024,
  fdsPerAgentMax: 1,
  inotifyPerAgentMax: 1,
} as const;

/** The bounds a run is held to: the scale goals at ≥ SCALE_GOAL_AGENTS agents, else the N = 1,000 ones. */
export function boundsOf(r: Pick<RunResult, 'n' | 'swarms'>): {
  readyMaxMs: number;
  stopMaxMs: number;
  rawMaxRatio: number;
  rssMaxMib: number;
} {
  return r.n * (r.swarms ?? 1) >= SCALE_GOAL_AGENTS ? SCALE_GOALS : GOALS;
}

export interface Machine {
  readonly cores: number;
  readonly memGiB: number;
  readonly kernel: string;
  readonly node: string;
}

export interface Primitives {
  /** `setpriv … bwrap <our flags> -- /bin/true`, captured from a running agent, ms per run. */
  readonly bwrapMs?: number;
  /**
   * The same argv run `inFlight` at a time (100 runs): wall ms per run, the box's throughput floor for sandbox
   * starts — a launch of N sandboxes cannot take less than N × msPerRun whatever the server does.
   */
  readonly bwrapParallel?: { readonly msPerRun: number; readonly inFlight: number };
  /** The argv that was timed (paths and flags only: the bench agents carry no secret). */
  readonly bwrapArgv?: readonly string[];
  readonly tmux?: TmuxPrimitives;
}

export interface BenchReport {
  readonly date: string;
  readonly commit: string;
  /** The server entry that ran (another build with `--server-main`). */
  readonly server: string;
  readonly machine: Machine;
  readonly ns: readonly number[];
  /** Swarms of N agents run at once (absent: 1). */
  readonly swarms?: number;
  readonly skipped: readonly { backend: BenchBackend; reason: string }[];
  /** The box's 1-minute load average when the run started and ended (other work on the box shows here). */
  readonly loadAverage?: { readonly start: number; readonly end: number };
  readonly primitives: Primitives;
  readonly runs: readonly RunResult[];
  readonly ring?: RingResult;
}

type Verdict = 'MET' | 'MISSED' | '—';
const verdict = (checks: readonly boolean[]): Verdict => (checks.length === 0 ? '—' : checks.every(Boolean) ? 'MET' : 'MISSED');
const f = (x: number | undefined, digits = 1): string => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits));

/** The raw per-agent primitive a backend's launch is compared with, ms. */
export function rawPrimitiveMs(backend: BenchBackend, p: Primitives): number | undefined {
  const win = p.tmux?.windowMs;
  if (backend === 'bwrap') return p.bwrapMs;
  if (backend === 'tmux') return win;
  if (backend === 'tmux-bwrap') return win === undefined || p.bwrapMs === undefined ? undefined : win + p.bwrapMs;
  return undefined;
}

/** `N`, or `K×N` for K swarms at once. */
function nLabel(r: RunResult): string {
  return (r.swarms ?? 1) > 1 ? `${r.swarms}×${r.n}` : String(r.n);
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function launchRow(r: RunResult, p: Primitives): string[] {
  const d = r.decileMsPerAgent ?? [];
  const flat = d.length === 10 ? (d[9] as number) / (d[0] as number) : undefined;
  const raw = rawPrimitiveMs(r.backend, p);
  const perAgent = r.readyMs === undefined ? undefined : r.readyMs / r.n;
  const vsRaw = raw === undefined || perAgent === undefined ? undefined : perAgent / raw;
  const checks: boolean[] = [];
  if (r.error !== undefined) checks.push(false);
  if (SANDBOXED.has(r.backend) && r.n >= GOAL_N && r.readyMs !== undefined) checks.push(r.readyMs <= boundsOf(r).readyMaxMs);
  if (r.n >= 100 && flat !== undefined && r.backend !== 'mock') checks.push(flat <= GOALS.flatMaxRatio);
  if (SANDBOXED.has(r.backend) && vsRaw !== undefined && r.n >= 100) checks.push(vsRaw <= boundsOf(r).rawMaxRatio);
  const deciles = d.length === 10 ? `${f(d[0])} → ${f(d[9])}` : '—';
  return [
    r.backend,
    nLabel(r),
    f(r.readyMs === undefined ? undefined : r.readyMs / 1000, 2),
    f(perAgent, 2),
    deciles,
    f(flat, 2),
    f(vsRaw, 2),
    `${f(r.launchServerCpuS, 1)}${r.tmuxServers === undefined ? '' : ` · ${r.tmuxServers}, ${f(r.launchTmuxCpuS, 1)}`}`,
    verdict(checks),
  ];
}

function stopRow(r: RunResult): string[] {
  const procs = r.leftoverProcesses?.length;
  const dirs = r.leftoverDirs?.length;
  const checks: boolean[] = [];
  if (r.stopMs === undefined) checks.push(false);
  if (r.n >= GOAL_N && r.stopMs !== undefined) checks.push(r.stopMs <= boundsOf(r).stopMaxMs);
  if (procs !== undefined) checks.push(procs === 0 && dirs === 0 && r.tmuxServerLeft === false);
  return [
    r.backend,
    nLabel(r),
    f(r.stopMs === undefined ? undefined : r.stopMs / 1000, 2),
    `${f(r.stopServerCpuS, 1)}${r.stopTmuxCpuS === undefined ? '' : ` · ${f(r.stopTmuxCpuS, 1)}`}`,
    f(r.stopBoxCpuPct, 0),
    String(procs ?? '—'),
    r.tmuxServerLeft === undefined ? '—' : r.tmuxServerLeft ? 'yes' : 'no',
    String(dirs ?? '—'),
    verdict(checks),
  ];
}

function idleRow(r: RunResult): string[] {
  const checks = r.idleServerCpuPct === undefined ? [] : [r.idleServerCpuPct <= GOALS.idleMaxPct];
  return [r.backend, nLabel(r), f(r.idleServerCpuPct, 2), f(r.idleBoxCpuPct, 1), verdict(checks)];
}

function latencyRow(r: RunResult): string[] {
  const l = r.receiptToEvent;
  const checks = l === undefined ? [] : [l.p50Ms <= GOALS.p50MaxMs, l.p99Ms <= GOALS.p99MaxMs];
  return [r.backend, nLabel(r), String(l?.samples ?? '—'), f(l?.p50Ms, 0), f(l?.p99Ms, 0), f(l?.maxMs, 0), verdict(checks)];
}

function launchStatusRow(r: RunResult): string[] {
  const l = r.apiDuringLaunch;
  const checks = l === undefined || l.samples === 0 ? [] : [l.p99Ms <= GOALS.statusDuringLaunchP99Ms];
  return [r.backend, nLabel(r), String(l?.samples ?? '—'), f(l?.p50Ms, 0), f(l?.p99Ms, 0), f(l?.maxMs, 0), verdict(checks)];
}

function memoryRow(r: RunResult): string[] {
  const agents = r.n * (r.swarms ?? 1);
  const per = (x: number | undefined, before = 0): string => (x === undefined ? '—' : `${x} (${f((x - before) / agents, 2)}/agent)`);
  // as shown (two decimals): the server's own few extra descriptors during a run (connections, the database) are not an agent's
  const fdsPerAgent = r.serverFds === undefined ? undefined : (r.serverFds - (r.serverFdsBefore ?? 0)) / agents;
  return [
    r.backend,
    nLabel(r),
    f(r.rssMib, 0),
    per(r.serverFds, r.serverFdsBefore),
    per(r.inotifyWatches),
    f(r.agentPssKibPerAgent === undefined ? undefined : (r.agentPssKibPerAgent * 1024) / 1e6, 2),
    verdict([
      ...(r.rssMib === undefined ? [] : [r.rssMib <= boundsOf(r).rssMaxMib]),
      ...(agents < SCALE_GOAL_AGENTS || fdsPerAgent === undefined
        ? []
        : [Math.round(fdsPerAgent * 100) / 100 <= SCALE_GOALS.fdsPerAgentMax]),
      ...(agents < SCALE_GOAL_AGENTS || r.inotifyWatches === undefined
        ? []
        : [r.inotifyWatches / agents <= SCALE_GOALS.inotifyPerAgentMax]),
      ...(r.agentPssKibPerAgent === undefined || !SANDBOXED.has(r.backend)
        ? []
        : [(r.agentPssKibPerAgent * 1024) / 1e6 <= GOALS.agentMaxMb]),
    ]),
  ];
}

function apiRow(r: RunResult): string[] {
  const l = r.listSwarms;
  return [
    r.backend,
    nLabel(r),
    f(l?.rps, 0),
    f(l?.bareRps, 0),
    f(l?.ratio, 2),
    `${f(l?.gated?.cpuMsPerReq, 3)} / ${f(l?.bare?.cpuMsPerReq, 3)}`,
    `${f(l?.gated?.serverCpuPct, 0)} / ${f(l?.bare?.serverCpuPct, 0)}`,
    f(l?.cpuRatio, 2),
    verdict(l === undefined ? [] : [l.ratio >= GOALS.listMinRatio]),
  ];
}

function pasteRow(r: RunResult, p: Primitives): string[] {
  const rest = r.restPaste;
  const alone = p.tmux?.pasteRead;
  // the baseline: raw pastes interleaved with the REST ones on the swarm's own tmux server; else the private server's
  const raw = r.rawPaste ?? alone;
  const over = rest === undefined || raw === undefined ? undefined : rest.p50Ms - raw.p50Ms;
  return [
    r.backend,
    nLabel(r),
    String(rest?.samples ?? '—'),
    `${f(rest?.p50Ms, 2)} / ${f(rest?.p99Ms, 2)}`,
    `${f(r.rawPaste?.p50Ms, 2)} / ${f(r.rawPaste?.p99Ms, 2)}`,
    `${f(alone?.p50Ms, 2)} / ${f(alone?.p99Ms, 2)}`,
    f(over, 2),
    verdict(over === undefined ? [] : [over <= GOALS.pasteMaxOverRawMs]),
  ];
}

/** Markdown: a header (date, commit, machine), then one table per measure with its goal and MET/MISSED. */
export function formatReport(rep: BenchReport): string {
  const m = rep.machine;
  const p = rep.primitives;
  const out: string[] = [
    `# genswarms bench — ${rep.date}`,
    '',
    `commit \`${rep.commit}\` · server \`${rep.server}\` · ${m.cores} cores · ${m.memGiB.toFixed(0)} GiB · Linux ${m.kernel} · Node ${m.node} · N = ${rep.ns.join(', ')}${(rep.swarms ?? 1) > 1 ? ` · ${rep.swarms} swarms at once` : ''}${rep.loadAverage === undefined ? '' : ` · load average ${f(rep.loadAverage.start, 1)} → ${f(rep.loadAverage.end, 1)}`}`,
    ...rep.skipped.map((s) => `- skipped ${s.backend}: ${s.reason}`),
    '',
    '## Raw primitives (same run)',
    '',
    table(
      ['primitive', 'ms'],
      [
        ['bwrap with our flags (`setpriv … bwrap … -- /bin/true`)', f(p.bwrapMs, 2)],
        [
          `the same, ${p.bwrapParallel?.inFlight ?? '—'} at a time: ms per sandbox (the floor of a sandboxed launch; × 1000 = s at N = 1000)`,
          f(p.bwrapParallel?.msPerRun, 2),
        ],
        [`tmux new-window through one control-mode client (up to ${p.tmux?.panes ?? '—'} panes)`, f(p.tmux?.windowMs, 2)],
        [`control-mode round trip at ${p.tmux?.panes ?? '—'} panes`, f(p.tmux?.roundTripMs, 2)],
        [`\`list-panes -a\` at ${p.tmux?.panes ?? '—'} panes`, f(p.tmux?.listPanesMs, 2)],
      ],
    ),
    '',
    `## Launch — goal: sandboxed N=${GOAL_N} ready ≤ ${GOALS.readyMaxMs / 1000} s (${SCALE_GOAL_AGENTS} agents: ≤ ${SCALE_GOALS.readyMaxMs / 1000} s); last decile ≤ ${GOALS.flatMaxRatio}× the first; per agent ≤ ${GOALS.rawMaxRatio}× the raw primitive (${SCALE_GOAL_AGENTS} agents: ${SCALE_GOALS.rawMaxRatio}×)`,
    '',
    table(
      [
        'backend',
        'N',
        'ready s',
        'ms/agent',
        'ms/agent by decile (first → last)',
        'last/first',
        'per agent / raw',
        'server CPU s · tmux servers: n, CPU s',
        'goal',
      ],
      rep.runs.map((r) => launchRow(r, p)),
    ),
    '',
    `## Stop — goal: DELETE ?purge=true of N=${GOAL_N} ≤ ${GOALS.stopMaxMs / 1000} s (${SCALE_GOAL_AGENTS} agents: ≤ ${SCALE_GOALS.stopMaxMs / 1000} s), no process, no tmux server, no directory left`,
    '',
    table(
      [
        'backend',
        'N',
        'DELETE s',
        'server CPU s · tmux servers CPU s',
        'box % of all cores',
        'processes left',
        'tmux server left',
        'dirs left',
        'goal',
      ],
      rep.runs.map(stopRow),
    ),
    '',
    `## Idle — goal: server ≤ ${GOALS.idleMaxPct} % of a core`,
    '',
    table(['backend', 'N', 'server % of a core', 'box % of all cores', 'goal'], rep.runs.map(idleRow)),
    '',
    `## Latency receipt → turn_completed — goal: p50 ≤ ${GOALS.p50MaxMs} ms, p99 ≤ ${GOALS.p99MaxMs} ms`,
    '',
    table(['backend', 'N', 'turns', 'p50 ms', 'p99 ms', 'max ms', 'goal'], rep.runs.map(latencyRow)),
    '',
    `## Status during the launch — goal: GET /api/swarms and GET /api/swarms/<swarm> p99 ≤ ${GOALS.statusDuringLaunchP99Ms} ms while agents start`,
    '',
    table(['backend', 'N', 'reads', 'p50 ms', 'p99 ms', 'max ms', 'goal'], rep.runs.map(launchStatusRow)),
    '',
    `## API — goal: token-gated GET /api/swarms ≥ ${GOALS.listMinRatio}× a bare express route with the same body (same server process, one load client in its own process, keep-alive)`,
    '',
    table(
      [
        'backend',
        'N',
        'GET /api/swarms req/s',
        'bare req/s',
        'ratio',
        'server CPU ms/req gated / bare',
        'server % of a core gated / bare',
        'CPU ratio (bare/gated)',
        'goal',
      ],
      rep.runs.map(apiRow),
    ),
    '',
    `## Task delivery to a tmux pane — goal: REST task → the pane reads it, p50 ≤ the raw control-mode paste → read p50 + ${GOALS.pasteMaxOverRawMs} ms (same run)`,
    '',
    table(
      [
        'backend',
        'N',
        'samples',
        'REST → read p50 / p99 ms',
        'raw paste → read p50 / p99 ms, same panes, interleaved (the baseline)',
        `raw paste → read p50 / p99 ms, private server (${p.tmux?.panes ?? '—'} panes)`,
        'p50 over raw ms',
        'goal',
      ],
      rep.runs.filter((r) => r.restPaste !== undefined).map((r) => pasteRow(r, p)),
    ),
    '',
    `## Memory — goal: server RSS ≤ ${GOALS.rssMaxMib} MB (${SCALE_GOAL_AGENTS} agents: ≤ ${SCALE_GOALS.rssMaxMib} MB, ≤ ${SCALE_GOALS.fdsPerAgentMax} descriptor and ≤ ${SCALE_GOALS.inotifyPerAgentMax} inotify watch per agent); host memory ≤ ${GOALS.agentMaxMb} MB per idle sandboxed agent (the PSS of its processes)`,
    '',
    table(['backend', 'N', 'server RSS MiB', 'server fds', 'inotify watches', "agents' PSS MB/agent", 'goal'], rep.runs.map(memoryRow)),
  ];
  if (rep.ring !== undefined) {
    const r = rep.ring;
    out.push(
      '',
      `## Throughput — goal: ≥ ${GOALS.ringMinPerS} routed messages/s (ring of ${r.clients === 'sh' ? 'bash clients on the local backend' : 'mock agents'})`,
      '',
      table(
        ['agents', 'in flight', 'messages/s', 'server % of a core', 'server CPU ms per message', 'goal'],
        [
          [
            String(r.agents),
            String(r.tokens ?? '—'),
            f(r.messagesPerS, 0),
            f(r.serverCpuPct, 0),
            f(r.messagesPerS > 0 ? (r.serverCpuPct * 10) / r.messagesPerS : undefined, 2),
            verdict([r.messagesPerS >= GOALS.ringMinPerS]),
          ],
        ],
      ),
    );
  }
  const errors = rep.runs.filter((r) => r.error !== undefined);
  if (errors.length > 0) out.push('', '## Errors', '', ...errors.map((r) => `- ${r.backend} N=${r.n}: ${r.error}`));
  const left = rep.runs.filter((r) => (r.leftoverProcesses?.length ?? 0) + (r.leftoverDirs?.length ?? 0) > 0);
  for (const r of left)
    out.push(
      `- ${r.backend} N=${r.n} left: ${[...(r.leftoverProcesses ?? []).slice(0, 3), ...(r.leftoverDirs ?? []).slice(0, 3)].join('; ')}`,
    );
  return `${out.join('\n')}\n`;
}
