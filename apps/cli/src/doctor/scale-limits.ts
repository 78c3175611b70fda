import {
  AGENT_HOST_COST,
  agentsThatFit,
  limitLines,
  readHostLimits,
  type CgroupLayout,
  type HostCostRunner,
  type HostReadings,
  type LimitLine,
} from '@genswarms/runners';
import type { Check } from './probes';

/** The swarm size a limit is judged against: fewer bwrap agents than this fit → PROBLEM. */
export const TARGET_AGENTS = 1000;
/** The runners whose agents run on this host, in the order doctor lists them. */
const LOCAL_RUNNERS: readonly HostCostRunner[] = ['bwrap', 'local', 'tmux', 'tmux-bwrap', 'docker', 'tmux-docker'];

const n = (x: number): string => x.toLocaleString('en-US');

/** `bwrap 9,582, local 14,373, …`: how many more agents of each runner fit under `line` (runners it does not charge left out). */
function fits(line: LimitLine): string {
  const parts = LOCAL_RUNNERS.flatMap((r) => {
    const fit = agentsThatFit(line, r);
    return fit === undefined ? [] : [`${r} ${n(fit)}`];
  });
  return parts.length === 0 ? 'no local runner is charged' : `fits ${parts.join(', ')}`;
}

/** One check per host limit the engine checks before a start: its value, its use, and the agents of each runner that fit. */
export function checkHostLimitLines(readings: HostReadings): Check[] {
  return limitLines(readings).map((line) => {
    const { limit, used } = line.usage;
    if (limit === undefined) return { name: line.limit, status: 'ok', detail: `unlimited (${n(used)} in use)` };
    const bwrap = agentsThatFit(line, 'bwrap');
    const short = bwrap !== undefined && bwrap < TARGET_AGENTS;
    const missing = short ? (TARGET_AGENTS - bwrap) * AGENT_HOST_COST.bwrap[line.cost] : 0;
    const raise = short ? `; below ${n(TARGET_AGENTS)} bwrap agents: ${line.fix(limit + missing)}` : '';
    return {
      name: line.limit,
      status: short ? 'problem' : 'ok',
      detail: `${n(limit)} (${n(used)} in use, ${n(line.reserve)} kept free): ${fits(line)}${raise}`,
    };
  });
}

/** The tightest limit per runner: how many agents of each runner a start could add now, and which limit stops it. */
export function checkAgentsThatFit(readings: HostReadings): Check {
  const lines = limitLines(readings);
  const parts = LOCAL_RUNNERS.map((r) => {
    let best: { fit: number; limit: string } | undefined;
    for (const line of lines) {
      const fit = agentsThatFit(line, r);
      if (fit !== undefined && (best === undefined || fit < best.fit)) best = { fit, limit: line.limit };
    }
    return best === undefined ? `${r} unbounded` : `${r} ${n(best.fit)} (${best.limit})`;
  });
  return { name: 'agents that fit', status: 'ok', detail: `${parts.join(', ')}; a start past them is refused (host_limit)` };
}

function describeLayout(c: CgroupLayout): string {
  switch (c.kind) {
    case 'v2':
      return `cgroup v2 (controllers: ${c.controllers.join(' ') || 'none'})`;
    case 'v1':
      if (c.v2Controllers === undefined) return `cgroup v1 (${c.controllers.join(', ')})`;
      return `cgroup v1 (${c.controllers.join(', ')}) plus a cgroup2 mount with ${c.v2Controllers.join(', ') || 'no controller'} (hybrid: the v1 pids hierarchy is read)`;
    case 'none':
      return 'no cgroup hierarchy mounted';
  }
}

/** `cgroups`: the detected layout (never assumed), and fs.inotify.max_user_instances (one per server). */
export function checkCgroupLayout(readings: HostReadings): Check {
  const inst = readings.inotifyInstances;
  const instances = inst.limit === undefined ? '' : `; fs.inotify.max_user_instances ${n(inst.limit)} (the server holds 1)`;
  return { name: 'cgroups', status: 'ok', detail: `${describeLayout(readings.cgroups)}${instances}` };
}

/**
 * The host limits as doctor's process sees them (run it as the server's user and shell: the descriptor and watch
 * use it reads are its own, a fresh server's).
 */
export function checkScaleLimits(readings: HostReadings = readHostLimits()): Check[] {
  return [...checkHostLimitLines(readings), checkAgentsThatFit(readings), checkCgroupLayout(readings)];
}
