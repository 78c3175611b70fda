import type { AgentConfig } from '@genswarms/ir-gate';
import { TMUX_PANES_PER_SERVER } from '../tmux/tmux-servers';
import { AGENT_HOST_COST, countByRunner, TMUX_SERVER_HOST_COST, type AgentHostCost, type HostCostRunner } from './agent-host-cost';
import type { HostReadings, Usage } from './host-readings';

/** The host limits checked before agents start (docs/runners.md "Host limits"). */
export type HostLimitName =
  | 'kernel.pid_max'
  | 'kernel.threads-max'
  | 'RLIMIT_NPROC'
  | 'pids.max'
  | 'RLIMIT_NOFILE'
  | 'fs.inotify.max_user_watches'
  | 'kernel.pty.max'
  | 'cgroup.max.descendants';

/** A limit the agents would exceed: its name, its value now, what the start needs of it, and the command that raises it. */
export interface HostLimitExceeded {
  readonly limit: HostLimitName;
  readonly value: number;
  readonly need: number;
  readonly fix: string;
}

export type HostCapacity = { readonly kind: 'ok' } | ({ readonly kind: 'exceeded' } & HostLimitExceeded);

/** One limit as the check sees it: its use now, the per-agent figure it is charged with, the headroom kept, the fix. */
export interface LimitLine {
  readonly limit: HostLimitName;
  readonly usage: Usage;
  readonly cost: keyof AgentHostCost;
  /** Kept free for everything else on the host (a shell, sshd, the server's own files). */
  readonly reserve: number;
  fix(need: number): string;
}

/** Tasks kept free for the rest of the host: an operator must still be able to log in and run `genswarms stop`. */
export const HOST_TASKS_RESERVE = 512;
/** Descriptors kept for the server itself (SQLite, sockets, clients, logs). */
export const SERVER_FDS_RESERVE = 256;
/** ptys kept for operators' terminals. */
const PTYS_RESERVE = 16;
const WATCHES_RESERVE = 64;

/** The checked limits of `r`, in the order a refusal names them (the first exceeded is reported). */
export function limitLines(r: HostReadings): LimitLine[] {
  const lines: LimitLine[] = [
    { limit: 'kernel.pid_max', usage: r.pidMax, cost: 'tasks', reserve: HOST_TASKS_RESERVE, fix: (n) => `sysctl -w kernel.pid_max=${n}` },
    {
      limit: 'kernel.threads-max',
      usage: r.threadsMax,
      cost: 'tasks',
      reserve: HOST_TASKS_RESERVE,
      fix: (n) => `sysctl -w kernel.threads-max=${n}`,
    },
  ];
  if (r.nproc !== undefined)
    lines.push({
      limit: 'RLIMIT_NPROC',
      usage: r.nproc,
      cost: 'tasks',
      reserve: HOST_TASKS_RESERVE,
      fix: (n) => `ulimit -u ${n} in the server's shell (systemd: LimitNPROC=${n}), then restart the server`,
    });
  const pids = r.cgroupPids;
  if (pids !== undefined)
    lines.push({ limit: 'pids.max', usage: pids, cost: 'tasks', reserve: 0, fix: (n) => `echo ${n} > ${pids.cgroup}/pids.max` });
  lines.push(
    {
      limit: 'RLIMIT_NOFILE',
      usage: r.nofile,
      cost: 'fds',
      reserve: SERVER_FDS_RESERVE,
      fix: (n) => `ulimit -n ${n} in the server's shell (systemd: LimitNOFILE=${n}), then restart the server`,
    },
    {
      limit: 'fs.inotify.max_user_watches',
      usage: r.inotifyWatches,
      cost: 'watches',
      reserve: WATCHES_RESERVE,
      fix: (n) => `sysctl -w fs.inotify.max_user_watches=${n}`,
    },
    { limit: 'kernel.pty.max', usage: r.ptys, cost: 'ptys', reserve: PTYS_RESERVE, fix: (n) => `sysctl -w kernel.pty.max=${n}` },
  );
  const count = r.cgroupCount;
  if (count !== undefined)
    lines.push({
      limit: 'cgroup.max.descendants',
      usage: count,
      cost: 'cgroups',
      reserve: 0,
      fix: (n) => `raise cgroup.max.descendants of the server's cgroup to ${n}`,
    });
  return lines;
}

/** What `agents` would add on the host: their per-agent costs, plus one tmux server per TMUX_PANES_PER_SERVER panes. */
export function demandOf(byRunner: Partial<Record<HostCostRunner, number>>): AgentHostCost {
  const total = { tasks: 0, fds: 0, watches: 0, ptys: 0, cgroups: 0 };
  const add = (cost: AgentHostCost, times: number): void => {
    for (const k of Object.keys(total) as (keyof AgentHostCost)[]) total[k] += cost[k] * times;
  };
  let panes = 0;
  for (const [runner, n] of Object.entries(byRunner) as [HostCostRunner, number][]) {
    add(AGENT_HOST_COST[runner], n);
    if (runner === 'tmux' || runner === 'tmux-bwrap' || runner === 'tmux-docker') panes += n;
  }
  if (panes > 0) add(TMUX_SERVER_HOST_COST, Math.ceil(panes / TMUX_PANES_PER_SERVER));
  return total;
}

/**
 * Pure: would starting `agents` now exceed a limit? The first limit whose use + demand + reserve is over its value;
 * an unlimited or unreadable limit never refuses. Readings are a snapshot: two starts checked at the same moment
 * are each checked against the same use.
 */
export function checkHostCapacity(readings: HostReadings, agents: readonly Pick<AgentConfig, 'backend'>[]): HostCapacity {
  const demand = demandOf(countByRunner(agents));
  for (const line of limitLines(readings)) {
    const want = demand[line.cost];
    if (want === 0 || line.usage.limit === undefined) continue;
    const need = line.usage.used + want + line.reserve;
    if (need > line.usage.limit) return { kind: 'exceeded', limit: line.limit, value: line.usage.limit, need, fix: line.fix(need) };
  }
  return { kind: 'ok' };
}

/** How many more agents of `runner` fit under `line` now (undefined: no bound). */
export function agentsThatFit(line: LimitLine, runner: HostCostRunner): number | undefined {
  const per = AGENT_HOST_COST[runner][line.cost];
  if (per === 0 || line.usage.limit === undefined) return undefined;
  return Math.max(0, Math.floor((line.usage.limit - line.usage.used - line.reserve) / per));
}
