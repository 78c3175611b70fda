import { readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { parseCgroupMounts, parseProcCgroup, readOrUndefined, underMount } from '../cgroup/cgroup-detect';
import { BYPASS_FLAGS } from '../client/clients';
import { NAMESPACE_KINDS, type IsolationLimits, type NamespaceKind, type NetworkReach, type SeccompMode } from './isolation-report';

/** What /proc shows about one process, before it is compared with a plan. */
export interface ProcIsolation {
  readonly pid: number;
  /** Real uid and gid as the server sees them (the host ids, whatever a user namespace maps them to inside). */
  readonly uid: number;
  readonly gid: number;
  readonly namespaces: readonly NamespaceKind[];
  readonly no_new_privs: boolean;
  readonly seccomp: SeccompMode;
  readonly network: NetworkReach;
  readonly limits: IsolationLimits;
  /** Mount point → `rw` | `ro`, as the process sees its mounts. */
  readonly mountModes: ReadonlyMap<string, 'rw' | 'ro'>;
  readonly host_root_visible: boolean;
  readonly argv: readonly string[];
}

function nsId(pid: number | 'self', kind: NamespaceKind): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/${kind}`);
  } catch {
    return undefined; // expected: the kernel lacks this namespace kind, or the process is gone
  }
}

function statusField(status: string, name: string): string | undefined {
  return new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1];
}

const SECCOMP_MODES: Readonly<Record<string, SeccompMode>> = { '0': 'disabled', '1': 'strict', '2': 'filter' };

/** `/proc/<pid>/net/dev` interface names (the process's own network namespace). */
function interfaces(pid: number): string[] {
  const text = readOrUndefined(`/proc/${pid}/net/dev`) ?? '';
  return text
    .split('\n')
    .slice(2)
    .map((l) => l.split(':')[0]?.trim() ?? '')
    .filter((n) => n !== '');
}

function networkOf(pid: number, sharesNet: boolean): NetworkReach {
  if (sharesNet) return 'host';
  const names = interfaces(pid);
  if (names.length === 0) return 'none';
  return names.every((n) => n === 'lo') ? 'loopback' : 'own';
}

/** A positive integer from a cgroup knob, or undefined for `max`, -1 or v1's "unlimited" page-rounded maximum. */
function knob(file: string): number | undefined {
  const text = readOrUndefined(file)?.trim();
  if (text === undefined || text === 'max' || text === '-1') return undefined;
  const n = Number(text.split(/\s+/)[0]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The limits in force on `pid`, read through the server's own view of the hierarchies. */
export function cgroupLimitsOf(pid: number, mountinfo: string): IsolationLimits {
  const mounts = parseCgroupMounts(mountinfo);
  const cg = parseProcCgroup(readOrUndefined(`/proc/${pid}/cgroup`) ?? '');
  const dirOf = (controller: string): string | undefined => {
    const m = mounts.find((x) => x.fsType === 'cgroup' && x.superOptions.includes(controller));
    const p = cg.v1.get(controller);
    return m !== undefined && p !== undefined ? underMount(m, p) : undefined;
  };
  const v2mount = mounts.find((x) => x.fsType === 'cgroup2');
  const v2 = v2mount !== undefined && cg.v2 !== undefined ? underMount(v2mount, cg.v2) : undefined;
  const out: { memory_bytes?: number; pids?: number; cpu?: number } = {};
  const memDir = dirOf('memory');
  const memory =
    memDir !== undefined
      ? knob(path.join(memDir, 'memory.limit_in_bytes'))
      : v2 === undefined
        ? undefined
        : knob(path.join(v2, 'memory.max'));
  if (memory !== undefined && memory < 2 ** 62) out.memory_bytes = memory;
  const pidsDir = dirOf('pids');
  const pids = knob(path.join(pidsDir ?? v2 ?? '/nonexistent', 'pids.max'));
  if (pids !== undefined) out.pids = pids;
  const cpuDir = dirOf('cpu');
  const [quota, period] =
    cpuDir !== undefined
      ? [knob(path.join(cpuDir, 'cpu.cfs_quota_us')), knob(path.join(cpuDir, 'cpu.cfs_period_us'))]
      : (readOrUndefined(path.join(v2 ?? '/nonexistent', 'cpu.max')) ?? 'max').trim().split(/\s+/).map(Number);
  if (quota !== undefined && period !== undefined && Number.isFinite(quota) && quota > 0 && period > 0) out.cpu = quota / period;
  return out;
}

/** mountinfo: mount point → rw/ro (the per-mount options), and the root mount's device and root. */
function mountsOf(text: string): { modes: Map<string, 'rw' | 'ro'>; root?: string } {
  const modes = new Map<string, 'rw' | 'ro'>();
  let root: string | undefined;
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    const [devRoot, point, opts, dev] = [f[3], f[4], f[5], f[2]];
    if (point === undefined || opts === undefined) continue;
    const mountPoint = point.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
    modes.set(mountPoint, opts.split(',').includes('ro') ? 'ro' : 'rw');
    if (mountPoint === '/') root = `${dev ?? ''}:${devRoot ?? ''}`;
  }
  return root === undefined ? { modes } : { modes, root };
}

/** True when `pid` is in a namespace of this kind other than the server's own (one readlink pair). */
export function hasOwnNamespace(pid: number, kind: NamespaceKind): boolean {
  const own = nsId(pid, kind);
  return own !== undefined && own !== nsId('self', kind);
}

/** Reads one process's namespaces, status, network, cgroup limits, mounts and argv (Linux). */
export function inspectProc(pid: number): ProcIsolation {
  const namespaces = NAMESPACE_KINDS.filter((k) => hasOwnNamespace(pid, k));
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const selfMountinfo = readOrUndefined('/proc/self/mountinfo') ?? '';
  const mine = mountsOf(selfMountinfo);
  const theirs = mountsOf(readOrUndefined(`/proc/${pid}/mountinfo`) ?? '');
  return {
    pid,
    uid: Number(statusField(status, 'Uid') ?? NaN),
    gid: Number(statusField(status, 'Gid') ?? NaN),
    namespaces,
    no_new_privs: statusField(status, 'NoNewPrivs') === '1',
    seccomp: SECCOMP_MODES[statusField(status, 'Seccomp') ?? '0'] ?? 'disabled',
    network: networkOf(pid, !namespaces.includes('net')),
    limits: cgroupLimitsOf(pid, selfMountinfo),
    mountModes: theirs.modes,
    host_root_visible: theirs.root !== undefined && theirs.root === mine.root,
    argv: (readOrUndefined(`/proc/${pid}/cmdline`) ?? '').split('\0').filter((w) => w !== ''),
  };
}

/** The bypass flags present on an argv (as written, `--flag` or `--flag=…`). */
export function bypassFlagsIn(argv: readonly string[]): string[] {
  const found = argv.filter((w) => BYPASS_FLAGS.some((f) => w === f || w.startsWith(`${f}=`)));
  if (
    argv.some((w, i) => w === '--permission-mode=bypassPermissions' || (w === '--permission-mode' && argv[i + 1] === 'bypassPermissions'))
  )
    found.push('--permission-mode bypassPermissions');
  return found;
}
