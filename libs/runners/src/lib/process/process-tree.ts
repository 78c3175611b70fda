import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Default grace between SIGTERM and SIGKILL (ms). */
export const STOP_GRACE_MS = 3000;
/** Poll interval while waiting for a tree to exit (ms). */
const EXIT_POLL_MS = 25;

/**
 * True if `pid` is a live process (a zombie counts as gone: it runs nothing and holds no resources
 * but its table entry until its parent reaps it).
 */
export function isProcessAlive(pid: number): boolean {
  const fields = statFields(pid);
  // no readable /proc entry: ask signal 0 instead
  if (fields === undefined) return signalZero(pid);
  return fields[0] !== 'Z' && fields[0] !== 'X';
}

/**
 * The fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses): `[0]` state,
 * `[1]` ppid, `[19]` start time in clock ticks after boot. undefined when unreadable (gone, or not Linux).
 */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // expected: the process exited (or there is no /proc); each caller says what that means
  }
}

function signalZero(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return process.platform !== 'linux'; // on Linux /proc was authoritative: unreadable means gone
  } catch {
    // expected: the signal-0 probe failing means not alive (or not ours)
    return false;
  }
}

/**
 * How old a /proc snapshot may be when another stop asks for one (ms). A swarm stop runs many
 * `killProcessTree` at once: they share one scan instead of each reading every `/proc/<pid>/stat`
 * (one scan per agent made a 1,000-agent stop O(N²)). A process forked after the snapshot is
 * still reached through its process group, and the SIGKILL round always takes a fresh scan.
 */
export const PROC_SNAPSHOT_MAX_AGE_MS = 100;

/** ppid → children, from one pass over /proc. */
type ChildTable = ReadonlyMap<number, readonly number[]>;

/**
 * The process table is one per host, so its cache is one per process: a module-level snapshot (not
 * per-runner state) shared by every runner's stops.
 */
let shared: { readonly at: number; readonly table: ChildTable } | undefined;
let scans = 0;

/** Full /proc scans taken by this process so far (diagnostics; the stop-batch spec counts them). */
export function procScanCount(): number {
  return scans;
}

function scanChildren(): ChildTable {
  scans += 1;
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children; // expected: no /proc, the group signal is all we have
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = readPpid(Number(entry));
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  return children;
}

/** A snapshot no older than `maxAgeMs` (0: always a fresh scan). */
function childTable(maxAgeMs: number): ChildTable {
  const now = Date.now();
  if (shared !== undefined && maxAgeMs > 0 && now - shared.at <= maxAgeMs && now >= shared.at) return shared.table;
  shared = { at: now, table: scanChildren() };
  return shared.table;
}

function descendantsIn(table: ChildTable, roots: readonly number[]): number[] {
  const out: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of table.get(next) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * The children of `pid` from `/proc/<pid>/task/<tid>/children` (every thread's list), or undefined when
 * the kernel has no such file (CONFIG_PROC_CHILDREN off). A process that exited reads as no children.
 */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // expected: the process is gone
  }
  const out: number[] = [];
  for (const tid of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && tid === String(pid) && existsSync(`/proc/${pid}/task/${tid}`))
        return undefined;
      continue; // expected: the thread (or the process) ended while we looked
    }
    for (const word of text.split(' ')) if (/^\d+$/.test(word)) out.push(Number(word));
  }
  return out;
}

/** Descendants by walking children files down from `root` (O(subtree)); undefined without those files. */
function walkChildren(root: number): number[] | undefined {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const kids = childrenOf(queue.shift() as number);
    if (kids === undefined) return undefined;
    out.push(...kids);
    queue.push(...kids);
  }
  return out;
}

/**
 * Every descendant of `root` (Linux /proc; a snapshot — callers also signal the process group). Walks
 * `/proc/<pid>/task/<tid>/children` down from `root`, so the cost is the subtree's, not the host's (a
 * full scan per agent made launch checks and stops O(N²)); without those files, a scan of every
 * `/proc/<pid>/stat`, where `maxAgeMs` > 0 accepts a scan that recent (PROC_SNAPSHOT_MAX_AGE_MS).
 */
export function listDescendants(root: number, maxAgeMs = 0): number[] {
  return walkChildren(root) ?? descendantsIn(childTable(maxAgeMs), [root]);
}

function readPpid(pid: number): number | undefined {
  const fields = statFields(pid); // undefined: exited while we looked
  return fields === undefined ? undefined : Number(fields[1]);
}

/** Who a live process is: its parent and its start time (clock ticks after boot, `/proc/<pid>/stat` field 22). */
export interface ProcessIdentity {
  readonly ppid: number;
  readonly startTicks: number;
}

/**
 * The identity of `pid` if it is a live process (a zombie or a pid without a readable stat is undefined).
 * A pid and its start time name one process: the same pid with the same start tick would need the kernel to hand the pid
 * out again within one clock tick (10 ms), i.e. to wrap around the whole pid space in that time.
 */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const fields = statFields(pid);
  if (fields === undefined || fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const ppid = Number(fields[1]);
  const startTicks = Number(fields[19]);
  return Number.isSafeInteger(ppid) && Number.isSafeInteger(startTicks) ? { ppid, startTicks } : undefined;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // best-effort: ESRCH, already gone — the goal of the signal is met
  }
}

/**
 * Stop a process tree: SIGTERM to the process group (spawned `detached`, so pgid = pid) and to every
 * descendant found in /proc (catches children that left the group), wait up to `graceMs`, then SIGKILL
 * whatever is left, and wait for it to be gone.
 */
export async function killProcessTree(pid: number, graceMs: number = STOP_GRACE_MS): Promise<void> {
  if (!Number.isInteger(pid) || pid <= 1) return;
  const tree = [pid, ...listDescendants(pid, PROC_SNAPSHOT_MAX_AGE_MS)];
  signal(-pid, 'SIGTERM');
  for (const p of tree) signal(p, 'SIGTERM');
  if (await waitGone(tree, graceMs)) return;
  const late = [...new Set([...tree, ...tree.flatMap((p) => listDescendants(p))])];
  signal(-pid, 'SIGKILL');
  for (const p of late) signal(p, 'SIGKILL');
  await waitGone(late, Math.max(graceMs, 1000));
}

async function waitGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pids.every((p) => !isProcessAlive(p))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
  }
}
