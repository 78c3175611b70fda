import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly cmdline: string;
  readonly environ: string;
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return ''; // expected: the process exited while we looked, or its environ is not readable
  }
}

/** One /proc snapshot (pid, ppid, NUL-joined cmdline and environ). */
export function snapshotProcs(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOr(`/proc/${name}/stat`);
    if (stat === '') continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    out.push({
      pid: Number(name),
      ppid: Number(fields[1]),
      cmdline: readOr(`/proc/${name}/cmdline`),
      environ: readOr(`/proc/${name}/environ`),
    });
  }
  return out;
}

/**
 * Processes of ours left after a DELETE: the server's descendants, anything whose argv names the
 * server home (the tmux server daemonises away from the server's tree), and anything carrying the
 * swarm's GENSWARMS_SWARM in its environment.
 */
export function leftoverProcesses(serverPid: number, home: string, swarm: string): string[] {
  const procs = snapshotProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const ours = new Set<number>();
  const queue = [serverPid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift() as number) ?? []) {
      ours.add(c);
      queue.push(c);
    }
  }
  const needle = `GENSWARMS_SWARM=${swarm}\0`;
  for (const p of procs) if (p.pid !== serverPid && (p.cmdline.includes(home) || p.environ.includes(needle))) ours.add(p.pid);
  return procs.filter((p) => ours.has(p.pid)).map((p) => `${p.pid} ${p.cmdline.split('\0').join(' ').trim().slice(0, 120)}`);
}

/**
 * What the agents cost the host in memory: the proportional set size (PSS, `/proc/<pid>/smaps_rollup`: shared
 * pages split between their users) of every process of ours except the server — its descendants and
 * anything whose argv names the home (the tmux server) — in KiB, and how many processes that is.
 */
export function agentProcessesPss(serverPid: number, home: string): { kib: number; processes: number } {
  const procs = snapshotProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const ours = new Set<number>();
  const queue = [serverPid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift() as number) ?? []) {
      ours.add(c);
      queue.push(c);
    }
  }
  for (const p of procs) if (p.pid !== serverPid && p.cmdline.includes(home)) ours.add(p.pid);
  let kib = 0;
  for (const pid of ours) {
    const m = /^Pss:\s+(\d+) kB/m.exec(readOr(`/proc/${pid}/smaps_rollup`));
    if (m !== null) kib += Number(m[1]);
  }
  return { kib, processes: ours.size };
}

function socketsOf(home: string): RegExp {
  return new RegExp(`${escapeRegExp(join(home, 'tmux'))}/tmux(-[0-9]+)?\\.sock`);
}

/** Is a tmux server for `home` running (a process whose argv names one of its sockets, `<home>/tmux/tmux[-<k>].sock`)? */
export function tmuxServerRunning(home: string): boolean {
  const sockets = socketsOf(home);
  return snapshotProcs().some((p) => sockets.test(p.cmdline));
}

/**
 * The tmux servers of `home` and the CPU they used so far (utime + stime, clock ticks): processes naming one
 * of its sockets that are not a child of the orchestrator (its control clients are; a server daemonises).
 */
export function tmuxServersCpu(home: string, serverPid: number): { servers: number; ticks: number } {
  const each = tmuxServerTicks(home, serverPid);
  let ticks = 0;
  for (const t of each.values()) ticks += t;
  return { servers: each.size, ticks };
}

/** CPU used so far (clock ticks) by each tmux server of `home`, by pid (see tmuxServersCpu). */
export function tmuxServerTicks(home: string, serverPid: number): Map<number, number> {
  const sockets = socketsOf(home);
  const pids = snapshotProcs()
    .filter((p) => p.ppid !== serverPid && sockets.test(p.cmdline))
    .map((p) => p.pid);
  return ticksOf(pids);
}

/**
 * utime + stime (clock ticks) of each of `pids` that still runs: one `/proc/<pid>/stat` read each, so a
 * sampler during a DELETE costs next to nothing (a full process snapshot is ~3,000 reads at N = 1,000).
 */
export function ticksOf(pids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const stat = readOr(`/proc/${pid}/stat`);
    if (stat === '') continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(pid, Number(f[11] ?? 0) + Number(f[12] ?? 0));
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Directories under `home` that still name `swarm` after a purge, other than the kept workspace root
 * (`workspaces/<swarm>` is the operator's data).
 */
export function leftoverDirs(home: string, swarm: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // expected: removed while we walked
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const full = join(dir, e.name);
      const rel = relative(home, full);
      if (rel === join('workspaces', swarm) || rel.startsWith(`${join('workspaces', swarm)}/`)) continue;
      if (e.name === swarm) found.push(rel);
      if (depth < 3) walk(full, depth + 1);
    }
  };
  walk(home, 0);
  return found;
}
