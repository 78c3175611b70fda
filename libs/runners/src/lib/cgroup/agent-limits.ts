import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { CGROUP_EXEC_PATH } from '../launcher/launcher';
import { parseCpuLimit, parseMemoryLimit } from '../docker/container-spec';
import { NAME_RE } from '../tmux/tmux-words';
import { CGROUP_TOP_DIR, homeIdOf } from './agent-cgroup';
import { CGROUP_KILL_TIMEOUT_MS, readProcsFile, removeEmptyUpTo } from './cgroup-ops';
import { CONTROLLER_OF, LIMIT_KEYS, unenforceableKeys, type LimitController, type LimitKey, type LimitSupport } from './limit-detect';

/** CFS period (µs) the cpu quota is expressed in: 100 ms, the kernel default. */
export const CPU_PERIOD_US = 100_000;
/** The smallest quota the kernel accepts (µs). */
const CPU_MIN_QUOTA_US = 1000;
/** Subtree of the limit groups below `<base>/genswarms/<home-id>`: bwrap agents, headless or in a tmux pane. */
const LIMIT_OWNER_DIR = 'bwrap';
const POLL_MS = 25;
/** Attempts of `mkdir -p` racing a concurrent removal of an empty parent. */
const MKDIR_ATTEMPTS = 3;

/** Parsed limits of one agent (validated again here: plan refuses a bad value with `validation_failed`). */
export interface AgentLimits {
  readonly memoryBytes?: number;
  readonly pids?: number;
  readonly cpu?: number;
}

/** One agent's limit groups: one directory per controller on v1, one directory on v2. */
export interface AgentLimitGroup {
  readonly version: 1 | 2;
  readonly limits: AgentLimits;
  /** Controller → directory; on v2 every entry is the same directory. */
  readonly dirs: Readonly<Partial<Record<LimitController | 'cpuacct', string>>>;
  /** Controller → the kept top `<base>/genswarms`; removal stops below it. */
  readonly tops: Readonly<Partial<Record<LimitController | 'cpuacct', string>>>;
}

/** The limit keys an agent's config sets, in LIMIT_KEYS order. */
export function requestedLimitKeys(spec: AgentLaunchSpec): LimitKey[] {
  return LIMIT_KEYS.filter((k) => spec.config[k] !== undefined);
}

/** Pure: the parsed limits (`validation_failed` on a value the schema would refuse too). */
export function parseAgentLimits(spec: AgentLaunchSpec): AgentLimits {
  const memoryBytes = parseMemoryLimit(spec.config.memory_limit, spec.agent);
  const cpuNano = parseCpuLimit(spec.config.cpu_limit, spec.agent);
  const pids = spec.config.pids_limit;
  if (pids !== undefined && (!Number.isSafeInteger(pids) || pids < 16)) {
    throw new RunnerError('validation_failed', 'pids_limit must be an integer >= 16', { agent: spec.agent });
  }
  return {
    ...(memoryBytes === undefined ? {} : { memoryBytes }),
    ...(pids === undefined ? {} : { pids }),
    ...(cpuNano === undefined ? {} : { cpu: cpuNano / 1e9 }),
  };
}

function refuse(spec: AgentLaunchSpec, keys: readonly LimitKey[], why: string): never {
  throw new RunnerError('limits_unsupported', `${keys.join(', ')} cannot be enforced: ${why} (refused, never started unlimited)`, {
    agent: spec.agent,
    details: { agent: spec.agent, keys: [...keys] },
  });
}

/** Plan: a backend without a boundary that could hold limits (local, tmux runner none) refuses any of them. */
export function assertNoLimitsRequested(spec: AgentLaunchSpec, backend: string): void {
  const keys = requestedLimitKeys(spec);
  if (keys.length > 0) refuse(spec, keys, `backend ${backend} does not enforce limits; use bwrap or docker`);
}

/** Plan: every requested limit must be enforceable by this host's cgroups, else `limits_unsupported` (agent, keys). */
export function assertLimitsEnforceable(spec: AgentLaunchSpec, ctx: RunnerContext): AgentLimits {
  const limits = parseAgentLimits(spec);
  const missing = unenforceableKeys(ctx.limitSupport, requestedLimitKeys(spec));
  if (missing.length > 0) refuse(spec, missing, ctx.limitSupport?.reasons.join('; ') || 'no cgroup controller for them on this host');
  return limits;
}

/** Pure: the agent's limit groups, or undefined when it asks for no limit. Names only from validated Names. */
export function limitGroupFor(spec: AgentLaunchSpec, ctx: RunnerContext): AgentLimitGroup | undefined {
  const keys = requestedLimitKeys(spec);
  const support = ctx.limitSupport;
  if (keys.length === 0) return undefined;
  if (!NAME_RE.test(spec.swarm) || !NAME_RE.test(spec.agent)) throw new RunnerError('validation_failed', 'swarm and agent must be Names');
  if (support?.version === undefined || unenforceableKeys(support, keys).length > 0)
    refuse(spec, unenforceableKeys(support, keys), 'no cgroup');
  const controllers: (LimitController | 'cpuacct')[] = keys.map((k) => CONTROLLER_OF[k]);
  if (keys.includes('cpu_limit') && support.version === 1 && support.bases.cpuacct !== undefined) controllers.push('cpuacct');
  return groupAt(support, support.version, ctx.home, spec.swarm, spec.agent, controllers, parseAgentLimits(spec));
}

/**
 * After a restart (the limits are not stored): every group the agent could have on this host, for removal
 * only — directories that do not exist are skipped. Undefined when the host has no limit support.
 */
export function limitGroupAt(ctx: RunnerContext, swarm: string, agent: string): AgentLimitGroup | undefined {
  const support = ctx.limitSupport;
  if (support?.version === undefined || !NAME_RE.test(swarm) || !NAME_RE.test(agent)) return undefined;
  return groupAt(support, support.version, ctx.home, swarm, agent, Object.keys(support.bases) as (LimitController | 'cpuacct')[], {});
}

/** `<base>/genswarms/<home-id>/bwrap/<swarm>/<agent>` for each controller (Names already validated). */
function groupAt(
  support: LimitSupport,
  version: 1 | 2,
  home: string,
  swarm: string,
  agent: string,
  controllers: readonly (LimitController | 'cpuacct')[],
  limits: AgentLimits,
): AgentLimitGroup {
  const dirs: Partial<Record<LimitController | 'cpuacct', string>> = {};
  const tops: Partial<Record<LimitController | 'cpuacct', string>> = {};
  for (const c of controllers) {
    const base = support.bases[c] as string;
    tops[c] = path.join(base, CGROUP_TOP_DIR);
    dirs[c] = path.join(base, CGROUP_TOP_DIR, homeIdOf(home), LIMIT_OWNER_DIR, swarm, agent);
  }
  return { version, limits, dirs, tops };
}

/** The distinct directories of a group (v2: one). */
function groupDirs(group: AgentLimitGroup): string[] {
  return [...new Set(Object.values(group.dirs))];
}

/** `argv` behind one `genswarms-cgroup-exec <cgroup.procs>` per directory: the process joins every group before it execs. */
export function joinLimitArgv(group: AgentLimitGroup | undefined, argv: readonly string[]): readonly string[] {
  if (group === undefined) return argv;
  return [...groupDirs(group).flatMap((d) => [CGROUP_EXEC_PATH, path.join(d, 'cgroup.procs')]), ...argv];
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function readPids(dir: string): Promise<number[]> {
  return readProcsFile(path.join(dir, 'cgroup.procs'));
}

/** SIGKILLs every member until the groups are empty (a bwrap sandbox's pid namespace dies with its init). */
async function killMembers(group: AgentLimitGroup, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = new Set((await Promise.all(groupDirs(group).map(readPids))).flat());
    if (pids.size === 0) return;
    if (Date.now() > deadline) {
      throw new RunnerError('runner_error', "processes of the agent's limit cgroup survived SIGKILL", { details: { left: pids.size } });
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // expected: ESRCH, it exited between the read and the signal
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function writeKnob(dir: string, file: string, value: string, optional = false): Promise<void> {
  try {
    await fsp.writeFile(path.join(dir, file), value);
  } catch (err) {
    if (optional && errCode(err) === 'ENOENT') return; // this kernel has no such knob (e.g. no swap accounting)
    throw new RunnerError('start_failed', `the agent's limit could not be set (${file})`, { cause: err });
  }
}

/** Writes the limits into the (v1: per controller) directories. */
async function writeLimits(group: AgentLimitGroup): Promise<void> {
  const { memoryBytes, pids, cpu } = group.limits;
  const quota = cpu === undefined ? undefined : Math.max(CPU_MIN_QUOTA_US, Math.round(cpu * CPU_PERIOD_US));
  const d = group.dirs;
  if (group.version === 1) {
    if (memoryBytes !== undefined && d.memory !== undefined) {
      await writeKnob(d.memory, 'memory.limit_in_bytes', String(memoryBytes));
      await writeKnob(d.memory, 'memory.memsw.limit_in_bytes', String(memoryBytes), true); // swap cannot widen it
    }
    if (pids !== undefined && d.pids !== undefined) await writeKnob(d.pids, 'pids.max', String(pids));
    if (quota !== undefined && d.cpu !== undefined) {
      await writeKnob(d.cpu, 'cpu.cfs_period_us', String(CPU_PERIOD_US));
      await writeKnob(d.cpu, 'cpu.cfs_quota_us', String(quota));
    }
    return;
  }
  const dir = groupDirs(group)[0] as string;
  if (memoryBytes !== undefined) {
    await writeKnob(dir, 'memory.max', String(memoryBytes));
    await writeKnob(dir, 'memory.swap.max', '0', true);
  }
  if (pids !== undefined) await writeKnob(dir, 'pids.max', String(pids));
  if (quota !== undefined) await writeKnob(dir, 'cpu.max', `${quota} ${CPU_PERIOD_US}`);
}

/** v2: every level from the base down to the agent's parent passes the controllers on. */
async function enableV2Controllers(group: AgentLimitGroup): Promise<void> {
  const controllers = (Object.keys(group.dirs) as (LimitController | 'cpuacct')[]).filter((c) => c !== 'cpuacct');
  const dir = groupDirs(group)[0] as string;
  const base = path.dirname(group.tops[controllers[0] as LimitController] as string);
  const levels: string[] = [];
  for (let d = path.dirname(dir); d.startsWith(base); d = path.dirname(d)) levels.unshift(d);
  for (const level of levels) await writeKnob(level, 'cgroup.subtree_control', controllers.map((c) => `+${c}`).join(' '));
}

/** `mkdir -p`, again when a concurrent removal of an empty parent raced it (ENOENT). */
async function mkdirGroup(dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
      return;
    } catch (err) {
      if (errCode(err) !== 'ENOENT' || attempt >= MKDIR_ATTEMPTS)
        throw new RunnerError('start_failed', "the agent's limit cgroup could not be created", { cause: err });
    }
  }
}

/** Before a start: kills what a previous instance left, (re)creates the groups and writes the limits. */
export async function prepareLimitGroup(group: AgentLimitGroup): Promise<void> {
  // Always a fresh group: a leftover keeps its OOM counter (a false oom_killed) and its old values (a lower
  // memsw limit makes raising memory.limit_in_bytes fail with EINVAL).
  await removeLimitGroup(group);
  for (const dir of groupDirs(group)) await mkdirGroup(dir);
  if (group.version === 2) await enableV2Controllers(group);
  await writeLimits(group);
}

/** True when the kernel's OOM killer killed a member of the group (v1 `memory.oom_control`, v2 `memory.events`). */
export async function wasOomKilled(group: AgentLimitGroup): Promise<boolean> {
  const dir = group.dirs.memory;
  if (dir === undefined) return false;
  const file = group.version === 1 ? 'memory.oom_control' : 'memory.events';
  const text = await fsp.readFile(path.join(dir, file), 'utf8').catch((err: unknown) => {
    if (errCode(err) === 'ENOENT' || errCode(err) === 'ENODEV') return ''; // gone, or being removed
    throw err;
  });
  const m = /^oom_kill (\d+)$/m.exec(text);
  return m !== null && Number(m[1]) > 0;
}

/** Stop: members killed, then each group and its empty parents removed (the `genswarms` top is kept). */
export async function removeLimitGroup(group: AgentLimitGroup, timeoutMs: number = CGROUP_KILL_TIMEOUT_MS): Promise<void> {
  await killMembers(group, timeoutMs);
  for (const [c, dir] of Object.entries(group.dirs)) await removeEmptyUpTo(dir, group.tops[c as LimitController] as string);
}
