import { viewBackend, type AgentConfig } from '@genswarms/ir-gate';

/**
 * What one running agent holds on the host, by runner. `tasks` are kernel tasks (threads: what kernel.pid_max,
 * kernel.threads-max, RLIMIT_NPROC and a pids cgroup count); `fds` and `watches` are the server's own descriptors
 * and inotify watches; `ptys` come from kernel.pty.max; `cgroups` are the agent groups a local or tmux agent gets.
 */
export interface AgentHostCost {
  readonly tasks: number;
  readonly fds: number;
  readonly watches: number;
  readonly ptys: number;
  readonly cgroups: number;
}

/** The runners as the cost table tells them apart (a tmux agent's inner runner changes what it costs). */
export const HOST_COST_RUNNERS = [
  'mock',
  'local',
  'bwrap',
  'tmux',
  'tmux-bwrap',
  'tmux-docker',
  'docker',
  'ssh',
  'swarm',
  'apple_container',
] as const;
export type HostCostRunner = (typeof HOST_COST_RUNNERS)[number];

/**
 * Per running agent, measured on the 2-core development host with `npm run bench:agent-cost -- --n 1,50` (the N = 50
 * figures, rounded up; docs/benchmarks.md "Host cost per agent"). `watches` adds 1 to the idle figure: an in-flight
 * turn's receipt watch. A local or bwrap agent's one descriptor is its client's output pipe (stdout and stderr
 * together; procctl's spawnDetached finds the exit without a pidfd); its fds were re-measured with `--n 1,10`.
 * ssh, swarm and apple_container run their agents elsewhere (not measured here): one descriptor each for the
 * connection or stream the server keeps.
 */
export const AGENT_HOST_COST: Readonly<Record<HostCostRunner, AgentHostCost>> = {
  mock: { tasks: 0, fds: 0, watches: 1, ptys: 0, cgroups: 0 },
  local: { tasks: 2, fds: 1, watches: 2, ptys: 0, cgroups: 1 },
  bwrap: { tasks: 3, fds: 1, watches: 2, ptys: 0, cgroups: 0 },
  tmux: { tasks: 3, fds: 1, watches: 2, ptys: 1, cgroups: 1 },
  'tmux-bwrap': { tasks: 4, fds: 1, watches: 2, ptys: 1, cgroups: 0 },
  'tmux-docker': { tasks: 14, fds: 1, watches: 2, ptys: 2, cgroups: 0 },
  docker: { tasks: 14, fds: 2, watches: 2, ptys: 0, cgroups: 0 },
  ssh: { tasks: 0, fds: 1, watches: 0, ptys: 0, cgroups: 0 },
  swarm: { tasks: 0, fds: 1, watches: 0, ptys: 0, cgroups: 0 },
  apple_container: { tasks: 1, fds: 3, watches: 2, ptys: 0, cgroups: 0 },
};

/** What each tmux server costs besides its panes (the server process and the control client, its pipes). */
export const TMUX_SERVER_HOST_COST: AgentHostCost = { tasks: 2, fds: 3, watches: 0, ptys: 0, cgroups: 0 };

/** The cost-table row of an agent config. */
export function hostCostRunnerOf(agent: Pick<AgentConfig, 'backend'>): HostCostRunner {
  const b = viewBackend(agent.backend);
  if (b.type !== 'tmux') return b.type;
  return b.runner === 'bwrap' ? 'tmux-bwrap' : b.runner === 'docker' ? 'tmux-docker' : 'tmux';
}

/** Agents per cost-table row (a null-prototype record: every key is a known runner). */
export function countByRunner(agents: readonly Pick<AgentConfig, 'backend'>[]): Partial<Record<HostCostRunner, number>> {
  const out: Partial<Record<HostCostRunner, number>> = Object.create(null) as Partial<Record<HostCostRunner, number>>;
  for (const a of agents) {
    const r = hostCostRunnerOf(a);
    out[r] = (out[r] ?? 0) + 1;
  }
  return out;
}
