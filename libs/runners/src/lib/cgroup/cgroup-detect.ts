import { accessSync, constants as fsc, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * How a runner keeps track of every process of a host agent (local, tmux `runner: none`), escaped
 * (setsid, double fork, nohup) or not. Detected once at boot; see docs/runners.md "Lifecycle".
 * - `cgroup2`: a writable delegated subtree of the server's own cgroup (`root`), `cgroup.kill` or freeze + SIGKILL.
 * - `cgroup1`: a v1 hierarchy mounted at `root` (root only): `freezer` (freeze, SIGKILL, thaw) or `pids` (pids.max 0, SIGKILL).
 * - `none`: best effort (process group + /proc descendants): a `setsid` double fork reparented to init escapes.
 */
export type ProcessTracking =
  | { readonly kind: 'cgroup2'; readonly root: string; readonly controllers: readonly string[] }
  | { readonly kind: 'cgroup1'; readonly root: string; readonly controller: V1TrackingController }
  | { readonly kind: 'none'; readonly reason: string };

/** The v1 hierarchies that can stop a group from forking while it is killed, best first. */
export const V1_TRACKING_CONTROLLERS = ['freezer', 'pids'] as const;
export type V1TrackingController = (typeof V1_TRACKING_CONTROLLERS)[number];
/**
 * Controllers a v2 subtree must offer to be used. A hybrid host's cgroup2 mount (v1 controllers plus an
 * empty `unified` hierarchy) offers none: it is passed over for v1, which the agents' limits also need.
 */
export const V2_REQUIRED_CONTROLLERS: readonly string[] = ['pids'];

/** What detection reads; injectable so the choice is testable on any host. */
export interface TrackingProbe {
  /** `/proc/self/mountinfo`. */
  readonly mountinfo: string;
  /** `/proc/self/cgroup`. */
  readonly procCgroup: string;
  readonly euid: number;
  isWritableDir(dir: string): boolean;
  /** A cgroup file's text, or undefined when unreadable. */
  readFile(file: string): string | undefined;
}

export interface CgroupMount {
  readonly root: string;
  readonly mountPoint: string;
  readonly fsType: string;
  readonly superOptions: readonly string[];
}

/** `\040` and friends: mountinfo escapes space, tab, newline and backslash in octal. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** The cgroup and cgroup2 mounts of a mountinfo text. */
export function parseCgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const l = left.split(' ');
    const [fsType, , superOpts] = right.split(' ');
    const root = l[3];
    const mountPoint = l[4];
    if ((fsType !== 'cgroup' && fsType !== 'cgroup2') || root === undefined || mountPoint === undefined) continue;
    mounts.push({
      root: unescapeMountField(root),
      mountPoint: unescapeMountField(mountPoint),
      fsType,
      superOptions: (superOpts ?? '').split(','),
    });
  }
  return mounts;
}

/** `/proc/self/cgroup`: the v2 path (`0::/x`) and the v1 path per controller. */
export function parseProcCgroup(text: string): { readonly v2?: string; readonly v1: ReadonlyMap<string, string> } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(\/.*)$/.exec(line);
    if (m === null) continue;
    const [, hier, controllers, cgPath] = m as unknown as [string, string, string, string];
    if (hier === '0' && controllers === '') v2 = cgPath;
    else for (const c of controllers.split(',')) if (c !== '') v1.set(c, cgPath);
  }
  return v2 === undefined ? { v1 } : { v2, v1 };
}

/** A cgroup path as seen through a mount whose root is `mountRoot`; undefined when it lies outside. */
export function underMount(mount: CgroupMount, cgPath: string): string | undefined {
  const trim = (p: string): string => (p.length > 1 ? p.replace(/\/+$/, '') : p); // `/` + `/` is the mount point itself
  if (mount.root === '/') return trim(path.join(mount.mountPoint, cgPath));
  if (cgPath !== mount.root && !cgPath.startsWith(`${mount.root}/`)) return undefined;
  return trim(path.join(mount.mountPoint, cgPath.slice(mount.root.length)));
}

function detectV2(
  mounts: readonly CgroupMount[],
  procCgroup: ReturnType<typeof parseProcCgroup>,
  probe: TrackingProbe,
): ProcessTracking | string {
  const mount = mounts.find((m) => m.fsType === 'cgroup2');
  if (mount === undefined) return 'no cgroup2 mount';
  if (procCgroup.v2 === undefined) return 'not in a cgroup2 hierarchy';
  const own = underMount(mount, procCgroup.v2);
  if (own === undefined || !probe.isWritableDir(own)) return `cgroup2: the server's cgroup is not writable (no delegation)`;
  const controllers = (probe.readFile(path.join(own, 'cgroup.controllers')) ?? '')
    .trim()
    .split(/\s+/)
    .filter((c) => c !== '');
  const missing = V2_REQUIRED_CONTROLLERS.filter((c) => !controllers.includes(c));
  if (missing.length > 0) return `cgroup2: ${own} lacks the ${missing.join(', ')} controller`;
  return { kind: 'cgroup2', root: own, controllers };
}

function detectV1(mounts: readonly CgroupMount[], probe: TrackingProbe): ProcessTracking | string {
  if (probe.euid !== 0) return 'cgroup v1 needs root';
  for (const controller of V1_TRACKING_CONTROLLERS) {
    const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller));
    if (mount !== undefined && probe.isWritableDir(mount.mountPoint)) return { kind: 'cgroup1', root: mount.mountPoint, controller };
  }
  return 'no writable freezer or pids v1 hierarchy';
}

/** Pure choice: v2 with a delegated subtree, else v1 as root, else `none` with the reasons. */
export function chooseProcessTracking(probe: TrackingProbe): ProcessTracking {
  const mounts = parseCgroupMounts(probe.mountinfo);
  const v2 = detectV2(mounts, parseProcCgroup(probe.procCgroup), probe);
  if (typeof v2 !== 'string') return v2;
  const v1 = detectV1(mounts, probe);
  if (typeof v1 !== 'string') return v1;
  return { kind: 'none', reason: `${v2}; ${v1}` };
}

/** A file's text, or undefined when it cannot be read. */
export function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // expected: an unreadable /proc or cgroup file counts as absent
  }
}

/** Detects this host's mechanism from /proc (the server's view; the CLI's doctor shows the same). */
export function detectProcessTracking(): ProcessTracking {
  const mountinfo = readOrUndefined('/proc/self/mountinfo');
  const procCgroup = readOrUndefined('/proc/self/cgroup');
  if (mountinfo === undefined || procCgroup === undefined) return { kind: 'none', reason: 'no /proc (not Linux?)' };
  return chooseProcessTracking({
    mountinfo,
    procCgroup,
    euid: process.geteuid?.() ?? -1,
    readFile: readOrUndefined,
    isWritableDir: writableDirProbe,
  });
}

/** True when this process may create entries in `dir`. */
export function writableDirProbe(dir: string): boolean {
  try {
    accessSync(dir, fsc.W_OK | fsc.X_OK);
    return true;
  } catch {
    return false; // expected: EACCES/EROFS/ENOENT is the answer "not writable"
  }
}

/** One line for doctor and logs: which mechanism, and what stop can promise with it. */
export function describeProcessTracking(t: ProcessTracking): string {
  switch (t.kind) {
    case 'cgroup2':
      return `cgroup v2 (${t.root}): stop kills every process of a local/tmux agent, escaped or not`;
    case 'cgroup1':
      return `cgroup v1 ${t.controller} (${t.root}): stop kills every process of a local/tmux agent, escaped or not`;
    case 'none':
      return `none: best effort (process group + descendants; a setsid double fork can escape): ${t.reason}`;
  }
}
