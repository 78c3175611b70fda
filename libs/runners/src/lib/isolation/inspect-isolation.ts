import { readOrUndefined } from '../cgroup/cgroup-detect';
import type { LaunchPlan, RunnerHandle } from '../port';
import { listDescendants } from '../process/process-tree';
import type { IsolationCheck, IsolationReport } from './isolation-report';
import { compareIsolation, expectedIsolation, type ExpectedIsolation } from './expected-isolation';
import { bypassFlagsIn, hasOwnNamespace, inspectProc, type ProcIsolation } from './proc-isolation';
import { checkShapeOf } from './check-shape';

export type { IsolationCheck } from './isolation-report';

/** How long the check waits for the client to appear inside its boundary (bwrap forks it after setting up). */
export const ISOLATION_FIND_TIMEOUT_MS = 5000;
/**
 * Waits between looks for the client, growing to the last: bwrap forks it within a few ms of starting,
 * and a launch slot is held while we wait (a flat 50 ms made each sandboxed launch wait ≥ 50 ms).
 */
const POLL_STEPS_MS: readonly number[] = [2, 5, 10, 20, 50];
/** Processes of the launch chain, never the client: bwrap's monitor and init, xargs, setpriv, our constant scripts. */
const CHAIN_COMMS: readonly string[] = ['bwrap', 'xargs', 'setpriv'];

function commOf(pid: number): string {
  return (readOrUndefined(`/proc/${pid}/comm`) ?? '').trim();
}

function isChain(pid: number): boolean {
  const comm = commOf(pid);
  return CHAIN_COMMS.includes(comm) || comm.startsWith('genswarms-');
}

/**
 * True while `pid` still runs as root: a process of the launch chain before its uid drop (a freshly forked child
 * still carries the server's comm and ids until it execs). No client ever runs as uid 0, so such a process is
 * not the client yet; one still root at the deadline is reported as found, and its uid 0 is a difference.
 */
function stillRoot(pid: number): boolean {
  return /^Uid:\s+0\s/m.test(readOrUndefined(`/proc/${pid}/status`) ?? '');
}

/** The client process under `root`: the first of the tree (breadth first) that is not part of the launch chain. */
export async function findClientPid(root: number, wantOwnUserNs: boolean, timeoutMs = ISOLATION_FIND_TIMEOUT_MS): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    // only the user namespace is read per candidate; the full inspection runs once, on the one found
    const candidate = [root, ...listDescendants(root)].find(
      (pid) => !isChain(pid) && !stillRoot(pid) && (!wantOwnUserNs || hasOwnNamespace(pid, 'user')),
    );
    if (candidate !== undefined || Date.now() > deadline) return candidate ?? root;
    const wait = POLL_STEPS_MS[Math.min(attempt, POLL_STEPS_MS.length - 1)] as number;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** A stored check read back (re-attach): the exact shape this build writes, else undefined (no check). */
export function isolationCheckFrom(stored: unknown): IsolationCheck | undefined {
  return checkShapeOf<IsolationCheck>(stored);
}

/** Pure: the check of a local, bwrap or tmux (none/bwrap) plan. */
export function isolationCheckOf(plan: LaunchPlan, expected: ExpectedIsolation = expectedIsolation(plan)): IsolationCheck {
  return {
    expected,
    workspace: expected.workspace ?? plan.spec.workspace,
    stateDir: expected.stateDir ?? plan.stateDir,
    ...(plan.egress === undefined ? {} : { egress: `${plan.egress.host}:${plan.egress.port}` }),
  };
}

/** The report for one process against a check. */
export function reportFor(actual: ProcIsolation, check: IsolationCheck, now: Date = new Date()): IsolationReport {
  const bypass = bypassFlagsIn(actual.argv);
  const mode = (where: string): 'rw' | 'ro' | 'absent' => actual.mountModes.get(where) ?? 'absent';
  return {
    verified_at: now.toISOString(),
    pid: actual.pid,
    uid: actual.uid,
    gid: actual.gid,
    namespaces: actual.namespaces,
    no_new_privs: actual.no_new_privs,
    seccomp: actual.seccomp,
    network: actual.network,
    ...(check.egress === undefined ? {} : { egress: check.egress }),
    limits: actual.limits,
    mounts: { workspace: mode(check.workspace), state_dir: mode(check.stateDir), host_root_visible: actual.host_root_visible },
    bypass_flags: bypass,
    differences: compareIsolation(check.expected, actual, bypass),
  };
}

/** Adds `isolation()` to a handle (in place: class handles keep their prototype): checks the live client under `pid`. */
export function attachIsolation<H extends RunnerHandle>(handle: H, check: IsolationCheck | undefined, rootPid: number | undefined): H {
  if (rootPid === undefined || check === undefined) return handle;
  return Object.assign(handle, {
    isolation: async (): Promise<IsolationReport> => {
      const pid = await findClientPid(rootPid, check.expected.namespaces.includes('user'));
      return reportFor(inspectProc(pid), check);
    },
  });
}
