import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { CGROUP_TOP_DIR, homeCgroupDir, type AgentCgroup, type CgroupOwner, type CgroupTracking } from './agent-cgroup';

/** How long a kill may take before the survivors are reported (ms): SIGKILL cannot be ignored, only D-state delays it. */
export const CGROUP_KILL_TIMEOUT_MS = 10_000;
/** Poll interval while a group empties or freezes (ms). */
const CGROUP_POLL_MS = 25;
/** How long a v1 freezer may stay FREEZING before the kill proceeds anyway (ms). */
const FREEZE_WAIT_MS = 1000;
/** Attempts of `mkdir -p` racing a concurrent removal of an empty parent. */
const MKDIR_ATTEMPTS = 10;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.stat(p);
    return true;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return false;
    throw err;
  }
}

async function writeControl(dir: string, file: string, value: string): Promise<boolean> {
  try {
    await fsp.writeFile(path.join(dir, file), value);
    return true;
  } catch (err) {
    // ENOENT: this kernel has no such knob; ENODEV: the group is being removed by a concurrent stop
    if (errCode(err) === 'ENOENT' || errCode(err) === 'ENODEV') return false;
    throw err;
  }
}

/** The members (thread-group ids) of a group; never the server itself or init. */
export function readCgroupPids(group: AgentCgroup): Promise<number[]> {
  return readProcsFile(group.procsFile);
}

/** The pids listed in a `cgroup.procs` file (none when it is gone); never the server itself or init. */
export async function readProcsFile(file: string): Promise<number[]> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    // ENODEV: the group is being removed (a concurrent stop); either way it holds no process any more
    if (errCode(err) === 'ENOENT' || errCode(err) === 'ENODEV') return [];
    throw err;
  }
  return text
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number)
    .filter((pid) => pid > 1 && pid !== process.pid);
}

/** No member can fork any more; resolves once the freeze is in effect (or its wait is over). */
async function blockForks(group: AgentCgroup): Promise<void> {
  const t = group.tracking;
  if (t.kind === 'cgroup1' && t.controller === 'pids') {
    await writeControl(group.dir, 'pids.max', '0');
    return;
  }
  const frozen =
    t.kind === 'cgroup1' ? await writeControl(group.dir, 'freezer.state', 'FROZEN') : await writeControl(group.dir, 'cgroup.freeze', '1');
  if (!frozen) return;
  const deadline = Date.now() + FREEZE_WAIT_MS;
  while (Date.now() < deadline && !(await isFrozen(group))) await sleep(CGROUP_POLL_MS);
}

async function isFrozen(group: AgentCgroup): Promise<boolean> {
  const file = group.tracking.kind === 'cgroup1' ? 'freezer.state' : 'cgroup.events';
  const text = await fsp.readFile(path.join(group.dir, file), 'utf8').catch((err: unknown) => {
    if (errCode(err) === 'ENOENT' || errCode(err) === 'ENODEV') return ''; // gone, or being removed
    throw err;
  });
  return group.tracking.kind === 'cgroup1' ? text.trim() === 'FROZEN' : /^frozen 1$/m.test(text);
}

/** Members may fork again (a fresh group, or a frozen one whose killed members must be let die). */
async function allowForks(group: AgentCgroup): Promise<void> {
  const t = group.tracking;
  if (t.kind === 'cgroup1' && t.controller === 'pids') await writeControl(group.dir, 'pids.max', 'max');
  else if (t.kind === 'cgroup1') await writeControl(group.dir, 'freezer.state', 'THAWED');
  else await writeControl(group.dir, 'cgroup.freeze', '0');
}

function sigkill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // expected: ESRCH, it exited between the read and the signal (the goal is met)
  }
}

/**
 * SIGKILL every member until `cgroup.procs` is empty. Forks are blocked first (v2 `cgroup.kill` is
 * atomic; v1 freezer: frozen members cannot fork or exit, so no pid is reused before its signal).
 */
async function killMembers(group: AgentCgroup, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await readCgroupPids(group)).length === 0) return;
    if (Date.now() > deadline) {
      throw new RunnerError('runner_error', "processes of the agent's cgroup survived SIGKILL", {
        details: { left: (await readCgroupPids(group)).length },
      });
    }
    if (group.tracking.kind !== 'cgroup2' || !(await writeControl(group.dir, 'cgroup.kill', '1'))) {
      await blockForks(group);
      for (const pid of await readCgroupPids(group)) sigkill(pid);
      if (group.tracking.kind !== 'cgroup1' || group.tracking.controller !== 'pids') await allowForks(group);
    }
    await sleep(CGROUP_POLL_MS);
  }
}

/** Kills what a previous instance left in the group (escaped processes), then creates it ready to be joined. */
export async function prepareAgentCgroup(group: AgentCgroup): Promise<void> {
  if (await exists(group.dir)) await killMembers(group, CGROUP_KILL_TIMEOUT_MS);
  for (let attempt = 1; ; attempt++) {
    try {
      await fsp.mkdir(group.dir, { recursive: true, mode: 0o755 });
      break;
    } catch (err) {
      // a concurrent stop removed an empty parent between the two mkdirs: try again
      if (errCode(err) !== 'ENOENT' || attempt >= MKDIR_ATTEMPTS)
        throw new RunnerError('start_failed', "the agent's cgroup could not be created", { cause: err, details: { errno: errCode(err) } });
    }
  }
  await allowForks(group);
}

/** Stop: every member is killed, escaped or not; then the group and its empty parents are removed. */
export async function killAgentCgroup(group: AgentCgroup, timeoutMs: number = CGROUP_KILL_TIMEOUT_MS): Promise<void> {
  if (!(await exists(group.dir))) return;
  await killMembers(group, timeoutMs);
  await allowForks(group);
  await removeEmptyUpTo(group.dir, topDir(group.tracking));
}

/** `<root>/genswarms`: removals stop below it (it is kept). */
function topDir(tracking: CgroupTracking): string {
  return path.join(tracking.root, CGROUP_TOP_DIR);
}

/** rmdir `dir`, then each parent below `stop`, while they are empty; a busy or non-empty one ends the walk. */
export async function removeEmptyUpTo(dir: string, stop: string): Promise<void> {
  for (let d = dir; d.startsWith(`${stop}/`); d = path.dirname(d)) {
    if (!(await rmdirIfEmpty(d))) return;
  }
}

/** True when removed or already gone; false when it still holds members or children. */
async function rmdirIfEmpty(dir: string): Promise<boolean> {
  try {
    await fsp.rmdir(dir);
    return true;
  } catch (err) {
    const code = errCode(err);
    if (code === 'ENOENT') return true;
    if (code === 'EBUSY' || code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * At a runner's first start: removes the empty groups a crashed server left under this home's `owner` subtree.
 * The owner directory and the home's directory above it stay: another runner of the same home (local beside tmux)
 * may be creating its first group below them at this moment, and removing them would pull its path away.
 */
export async function sweepEmptyCgroups(tracking: CgroupTracking, home: string, owner: CgroupOwner): Promise<void> {
  const ownerDir = path.join(homeCgroupDir(tracking, home), owner);
  let entries;
  try {
    entries = await fsp.readdir(ownerDir, { withFileTypes: true });
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) if (e.isDirectory()) await removeEmptyTree(path.join(ownerDir, e.name));
}

async function removeEmptyTree(dir: string): Promise<void> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) if (e.isDirectory()) await removeEmptyTree(path.join(dir, e.name));
  await rmdirIfEmpty(dir);
}
