import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { parseCgroupMounts, parseProcCgroup, underMount, type CgroupMount } from '../cgroup/cgroup-detect';

/** A limit and what is in use of it now; `limit` undefined = unlimited. */
export interface Usage {
  readonly limit: number | undefined;
  readonly used: number;
}

/** Which cgroup hierarchies this host has (detected, never assumed: a hybrid host has v1 controllers and an empty v2). */
export type CgroupLayout =
  | { readonly kind: 'v2'; readonly controllers: readonly string[] }
  /** `v2Controllers`: a hybrid host's cgroup2 mount and what it offers (often nothing, or hugetlb alone); undefined without one. */
  | { readonly kind: 'v1'; readonly controllers: readonly string[]; readonly v2Controllers: readonly string[] | undefined }
  | { readonly kind: 'none' };

/** Everything the host-limit check reads, at one moment, for this (the server's) process. */
export interface HostReadings {
  /** kernel.pid_max against every task of the host (`/proc/loadavg`). */
  readonly pidMax: Usage;
  readonly threadsMax: Usage;
  /** RLIMIT_NPROC against the tasks of this uid; undefined for root (not enforced) or when unreadable. */
  readonly nproc: Usage | undefined;
  /** The tightest pids.max of this process's pids cgroup and its ancestors, with its pids.current. */
  readonly cgroupPids: (Usage & { readonly cgroup: string }) | undefined;
  /** RLIMIT_NOFILE (soft) against this process's open descriptors. */
  readonly nofile: Usage;
  /** fs.inotify.max_user_watches against this process's watches (other processes of the user are not seen). */
  readonly inotifyWatches: Usage;
  readonly inotifyInstances: Usage;
  /** kernel.pty.max against kernel.pty.nr. */
  readonly ptys: Usage;
  readonly cgroups: CgroupLayout;
  /** v2 only: cgroup.max.descendants of this process's cgroup and its nr_descendants. */
  readonly cgroupCount: Usage | undefined;
}

/** Where readings come from; injectable so every branch is testable on any host. */
export interface HostProbe {
  readFile(file: string): string | undefined;
  listDir(dir: string): readonly string[];
  readLink(file: string): string | undefined;
  readonly euid: number;
  readonly uid: number;
  /** `/proc/<self>`: `/proc/self` for this process. */
  readonly procSelf: string;
}

const num = (text: string | undefined): number | undefined => {
  const t = text?.trim();
  return t !== undefined && /^\d+$/.test(t) ? Number(t) : undefined;
};
/** A limit file: a number, `max`/`unlimited` → undefined (unlimited), unreadable → undefined too. */
const limitOf = (text: string | undefined): number | undefined => num(text);

function softLimit(limits: string | undefined, name: string): number | undefined {
  const m = new RegExp(`^${name}\\s+(\\d+|unlimited)\\s`, 'm').exec(limits ?? '');
  return m === null || m[1] === 'unlimited' ? undefined : Number(m[1]);
}

function hostTasks(p: HostProbe): number {
  const field = (p.readFile('/proc/loadavg') ?? '').split(' ')[3] ?? '';
  return num(field.split('/')[1]) ?? 0;
}

function tasksOfUid(p: HostProbe, uid: number): number {
  let n = 0;
  for (const pid of p.listDir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const status = p.readFile(`/proc/${pid}/status`) ?? '';
    const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    if (real !== undefined && Number(real) === uid) n += num(/^Threads:\s+(\d+)/m.exec(status)?.[1]) ?? 1;
  }
  return n;
}

function descriptors(p: HostProbe): { fds: number; watches: number; instances: number } {
  const dir = path.join(p.procSelf, 'fd');
  const fds = p.listDir(dir);
  let watches = 0;
  let instances = 0;
  for (const fd of fds) {
    if (p.readLink(path.join(dir, fd)) !== 'anon_inode:inotify') continue;
    instances += 1;
    const info = p.readFile(path.join(p.procSelf, 'fdinfo', fd)) ?? '';
    watches += info.split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  }
  return { fds: fds.length, watches, instances };
}

function layoutOf(mounts: readonly CgroupMount[], p: HostProbe): CgroupLayout {
  const v2 = mounts.find((m) => m.fsType === 'cgroup2');
  const v2Controllers = v2 === undefined ? [] : (p.readFile(path.join(v2.mountPoint, 'cgroup.controllers')) ?? '').trim().split(/\s+/);
  const v2Has = v2Controllers.filter((c) => c !== '');
  const v1 = mounts
    .filter((m) => m.fsType === 'cgroup')
    .flatMap((m) => m.superOptions.filter((o) => !['rw', 'ro', 'relatime'].includes(o)));
  if (v1.length > 0) return { kind: 'v1', controllers: [...new Set(v1)].sort(), v2Controllers: v2 === undefined ? undefined : v2Has };
  if (v2 !== undefined) return { kind: 'v2', controllers: v2Has };
  return { kind: 'none' };
}

/** The tightest (max − current) pids limit from `dir` up to the mount point. */
function tightestPids(p: HostProbe, mountPoint: string, dir: string): (Usage & { cgroup: string }) | undefined {
  let best: (Usage & { cgroup: string }) | undefined;
  for (let d = dir; d.startsWith(mountPoint); d = path.dirname(d)) {
    const max = limitOf(p.readFile(path.join(d, 'pids.max')));
    const current = num(p.readFile(path.join(d, 'pids.current')));
    if (max !== undefined && current !== undefined && (best === undefined || max - current < (best.limit ?? 0) - best.used))
      best = { limit: max, used: current, cgroup: d };
    if (d === mountPoint) break;
  }
  return best;
}

function cgroupLimits(p: HostProbe): { layout: CgroupLayout; pids: HostReadings['cgroupPids']; count: Usage | undefined } {
  const mounts = parseCgroupMounts(p.readFile(path.join(p.procSelf, 'mountinfo')) ?? '');
  const own = parseProcCgroup(p.readFile(path.join(p.procSelf, 'cgroup')) ?? '');
  const layout = layoutOf(mounts, p);
  if (layout.kind === 'v2') {
    const mount = mounts.find((m) => m.fsType === 'cgroup2');
    const dir = mount === undefined || own.v2 === undefined ? undefined : underMount(mount, own.v2);
    if (mount === undefined || dir === undefined) return { layout, pids: undefined, count: undefined };
    const stat = p.readFile(path.join(dir, 'cgroup.stat')) ?? '';
    const count = {
      limit: limitOf(p.readFile(path.join(dir, 'cgroup.max.descendants'))),
      used: num(/^nr_descendants (\d+)/m.exec(stat)?.[1]) ?? 0,
    };
    return { layout, pids: tightestPids(p, mount.mountPoint, dir), count };
  }
  const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes('pids'));
  const ownPids = own.v1.get('pids');
  const dir = mount === undefined || ownPids === undefined ? undefined : underMount(mount, ownPids);
  // v1 has no cgroup count limit on the freezer and pids hierarchies the agent groups use
  return { layout, pids: mount === undefined || dir === undefined ? undefined : tightestPids(p, mount.mountPoint, dir), count: undefined };
}

/** Reads every limit and its use now (a few /proc reads; RLIMIT_NPROC's use scans /proc only for a non-root server). */
export function readHostLimits(p: HostProbe = SYSTEM_HOST_PROBE): HostReadings {
  const limits = p.readFile(path.join(p.procSelf, 'limits'));
  const tasks = hostTasks(p);
  const fd = descriptors(p);
  const nprocLimit = softLimit(limits, 'Max processes');
  const cg = cgroupLimits(p);
  return {
    pidMax: { limit: num(p.readFile('/proc/sys/kernel/pid_max')), used: tasks },
    threadsMax: { limit: num(p.readFile('/proc/sys/kernel/threads-max')), used: tasks },
    nproc: p.euid === 0 || nprocLimit === undefined ? undefined : { limit: nprocLimit, used: tasksOfUid(p, p.uid) },
    cgroupPids: cg.pids,
    nofile: { limit: softLimit(limits, 'Max open files'), used: fd.fds },
    inotifyWatches: { limit: num(p.readFile('/proc/sys/fs/inotify/max_user_watches')), used: fd.watches },
    inotifyInstances: { limit: num(p.readFile('/proc/sys/fs/inotify/max_user_instances')), used: fd.instances },
    ptys: { limit: num(p.readFile('/proc/sys/kernel/pty/max')), used: num(p.readFile('/proc/sys/kernel/pty/nr')) ?? 0 },
    cgroups: cg.layout,
    cgroupCount: cg.count,
  };
}

function tryOr<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // expected: /proc entries vanish while read, and a missing one reads as absent
  }
}

/** The host as this process sees it. */
export const SYSTEM_HOST_PROBE: HostProbe = {
  readFile: (file) => tryOr<string | undefined>(() => readFileSync(file, 'utf8'), undefined),
  listDir: (dir) => tryOr<readonly string[]>(() => readdirSync(dir), []),
  readLink: (file) => tryOr<string | undefined>(() => readlinkSync(file), undefined),
  get euid() {
    return process.geteuid?.() ?? -1;
  },
  get uid() {
    return process.getuid?.() ?? -1;
  },
  procSelf: '/proc/self',
};
