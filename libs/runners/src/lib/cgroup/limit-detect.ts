import * as path from 'node:path';
import { parseCgroupMounts, parseProcCgroup, readOrUndefined, underMount, writableDirProbe, type TrackingProbe } from './cgroup-detect';

/** The agent config keys a cgroup enforces, and the controller each needs. */
export const LIMIT_KEYS = ['memory_limit', 'pids_limit', 'cpu_limit'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];
export type LimitController = 'memory' | 'pids' | 'cpu';
export const CONTROLLER_OF: Readonly<Record<LimitKey, LimitController>> = { memory_limit: 'memory', pids_limit: 'pids', cpu_limit: 'cpu' };
/** Where cgroup hierarchies are looked for unless a test injects another root. */
export const DEFAULT_CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * Which limits this host can enforce on a sandboxed agent, detected once at boot (docs/runners.md "Limits"):
 * per controller, the directory agent groups are made below (the server's own group of that hierarchy).
 * - `cgroup2`: a delegated subtree whose `cgroup.subtree_control` already passes the controller down (or the
 *   mount's root, which may always enable it). Every controller shares one directory.
 * - `cgroup1`: as root, one v1 hierarchy per controller (`cpuacct`, for usage, is optional).
 * A controller missing from `bases` is not enforceable here: a plan asking for it is refused (`limits_unsupported`).
 */
export interface LimitSupport {
  readonly version: 1 | 2 | undefined;
  readonly bases: Readonly<Partial<Record<LimitController | 'cpuacct', string>>>;
  /** Why controllers are missing (shown by doctor and in the refusal message), empty when all three are there. */
  readonly reasons: readonly string[];
}

/** The keys of `keys` this host cannot enforce, in LIMIT_KEYS order. */
export function unenforceableKeys(support: LimitSupport | undefined, keys: readonly LimitKey[]): LimitKey[] {
  return LIMIT_KEYS.filter((k) => keys.includes(k) && support?.bases[CONTROLLER_OF[k]] === undefined);
}

type Mounts = ReturnType<typeof parseCgroupMounts>;

function isUnder(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(`${root.replace(/\/$/, '')}/`);
}

function wordsOf(text: string | undefined): string[] {
  return (text ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
}

function detectV2(mounts: Mounts, own: string | undefined, probe: TrackingProbe): LimitSupport | string {
  const mount = mounts.find((m) => m.fsType === 'cgroup2');
  if (mount === undefined) return 'no cgroup2 mount';
  const dir = own === undefined ? undefined : underMount(mount, own);
  if (dir === undefined || !probe.isWritableDir(dir)) return "cgroup2: the server's cgroup is not writable (no delegation)";
  const available = wordsOf(probe.readFile(path.join(dir, 'cgroup.controllers')));
  // Below the mount's root, "no internal processes" forbids enabling a controller for children of a group
  // holding the server itself: only what subtree_control already passes down is usable there.
  const passable = dir === mount.mountPoint ? available : wordsOf(probe.readFile(path.join(dir, 'cgroup.subtree_control')));
  const found = (['memory', 'pids', 'cpu'] as const).filter((c) => available.includes(c) && passable.includes(c));
  if (found.length === 0) return `cgroup2: ${dir} passes no memory, pids or cpu controller down`;
  return { version: 2, bases: Object.fromEntries(found.map((c) => [c, dir])), reasons: [] };
}

function detectV1(mounts: Mounts, procCgroup: ReturnType<typeof parseProcCgroup>, probe: TrackingProbe): LimitSupport | string {
  if (probe.euid !== 0) return 'cgroup v1 needs root';
  const bases: Partial<Record<LimitController | 'cpuacct', string>> = {};
  for (const c of ['memory', 'pids', 'cpu', 'cpuacct'] as const) {
    const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(c));
    const own = mount === undefined ? undefined : underMount(mount, procCgroup.v1.get(c) ?? '/');
    if (own !== undefined && probe.isWritableDir(own)) bases[c] = own;
  }
  if (bases.memory === undefined && bases.pids === undefined && bases.cpu === undefined)
    return 'no writable memory, pids or cpu v1 hierarchy';
  return { version: 1, bases, reasons: [] };
}

/**
 * Pure choice over what the probe shows, counting only hierarchies mounted at or below `root`: v2 when a
 * delegated subtree passes at least one limit controller down, else v1 as root, else nothing.
 */
export function chooseLimitSupport(probe: TrackingProbe, root: string = DEFAULT_CGROUP_ROOT): LimitSupport {
  const mounts = parseCgroupMounts(probe.mountinfo).filter((m) => isUnder(m.mountPoint, root));
  const procCgroup = parseProcCgroup(probe.procCgroup);
  const v2 = detectV2(mounts, procCgroup.v2, probe);
  const v1 = detectV1(mounts, procCgroup, probe);
  const chosen = typeof v2 !== 'string' ? v2 : typeof v1 !== 'string' ? v1 : { version: undefined, bases: {}, reasons: [v2, v1] };
  const missing = (['memory', 'pids', 'cpu'] as const).filter((c) => chosen.bases[c] === undefined);
  if (missing.length === 0 || chosen.version === undefined) return chosen;
  return {
    ...chosen,
    reasons: [`no usable ${missing.join(', ')} controller (${typeof v2 === 'string' ? v2 : 'v2'}; ${typeof v1 === 'string' ? v1 : 'v1'})`],
  };
}

/** This host's limit support, read from /proc and the hierarchies under `root` (tests inject a root without controllers). */
export function detectLimitSupport(root: string = DEFAULT_CGROUP_ROOT): LimitSupport {
  const mountinfo = readOrUndefined('/proc/self/mountinfo');
  const procCgroup = readOrUndefined('/proc/self/cgroup');
  if (mountinfo === undefined || procCgroup === undefined) return { version: undefined, bases: {}, reasons: ['no /proc (not Linux?)'] };
  return chooseLimitSupport(
    { mountinfo, procCgroup, euid: process.geteuid?.() ?? -1, readFile: readOrUndefined, isWritableDir: writableDirProbe },
    root,
  );
}

/** One line for doctor: which of memory_limit, pids_limit, cpu_limit bwrap agents get here. */
export function describeLimitSupport(s: LimitSupport): string {
  const enforced = LIMIT_KEYS.filter((k) => s.bases[CONTROLLER_OF[k]] !== undefined);
  const refused = LIMIT_KEYS.filter((k) => !enforced.includes(k));
  const how = s.version === undefined ? 'no cgroup' : `cgroup v${s.version}`;
  const head = `${how}: enforced ${enforced.length === 0 ? 'none' : enforced.join(', ')}`;
  return refused.length === 0 ? head : `${head}; refused at plan (limits_unsupported): ${refused.join(', ')} — ${s.reasons.join('; ')}`;
}
