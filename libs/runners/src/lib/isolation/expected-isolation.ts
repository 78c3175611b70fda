import type { LaunchPlan, NetworkMode } from '../port';
import { parseAgentLimits } from '../cgroup/agent-limits';
import { seccompFilterOf } from '../seccomp/seccomp-plan';
import type { ExpectedIsolation, IsolationDifference, NamespaceKind } from './isolation-report';
import type { ProcIsolation } from './proc-isolation';

export type { ExpectedIsolation } from './isolation-report';

const SANDBOX_NAMESPACES: readonly NamespaceKind[] = ['ipc', 'mnt', 'pid', 'user', 'uts'];
/** The kernel rounds memory.limit_in_bytes down to a page. */
const PAGE_BYTES = 4096;
const CPU_EPSILON = 0.01;

function isSandboxed(plan: LaunchPlan): boolean {
  return plan.spec.backend === 'bwrap' || (plan.spec.backend === 'tmux' && plan.spec.runner === 'bwrap');
}

function netNamespaced(network: NetworkMode): boolean {
  return network === 'none' || network === 'isolated';
}

/** Pure: the plan's promises for a bwrap (headless or tmux) or an unsandboxed host client. */
export function expectedIsolation(plan: LaunchPlan): ExpectedIsolation {
  const limits = parseAgentLimits(plan.spec);
  const base = {
    limits: {
      ...(limits.memoryBytes === undefined ? {} : { memory_bytes: limits.memoryBytes }),
      ...(limits.pids === undefined ? {} : { pids: limits.pids }),
      ...(limits.cpu === undefined ? {} : { cpu: limits.cpu }),
    },
    bypassAllowed: plan.spec.unsafeBypass,
  };
  if (!isSandboxed(plan)) return { ...base, namespaces: [], network: 'host' };
  const net = netNamespaced(plan.spec.network);
  return {
    ...base,
    namespaces: net ? ([...SANDBOX_NAMESPACES, 'net'] as NamespaceKind[]).sort() : SANDBOX_NAMESPACES,
    network: net ? 'loopback' : 'host',
    no_new_privs: true,
    // config.seccomp, and none/isolated (the network filter): docs/runners.md "Seccomp"
    ...(seccompFilterOf(plan.spec) === undefined ? {} : { seccomp: 'filter' as const }),
    workspace: '/workspace',
    stateDir: '/root',
    host_root_visible: false,
  };
}

/** Every way the live process contradicts the plan (empty: it matches). */
export function compareIsolation(
  expected: ExpectedIsolation,
  actual: ProcIsolation,
  bypassFlags: readonly string[],
): IsolationDifference[] {
  const out: IsolationDifference[] = [];
  const diff = (field: string, e: unknown, a: unknown): void => {
    out.push({ field, expected: String(e), actual: String(a) });
  };
  if (actual.uid === 0) diff('uid', 'an agent uid (never 0)', 0); // the uid rule: no agent runs as root, whatever the plan
  for (const ns of expected.namespaces) if (!actual.namespaces.includes(ns)) diff(`namespaces.${ns}`, 'own', 'shared with the server');
  if (expected.network !== actual.network) diff('network', expected.network, actual.network);
  if (expected.no_new_privs === true && !actual.no_new_privs) diff('no_new_privs', true, false);
  if (expected.seccomp !== undefined && actual.seccomp !== expected.seccomp) diff('seccomp', expected.seccomp, actual.seccomp);
  const { memory_bytes: mem, pids, cpu } = expected.limits;
  const live = actual.limits;
  if (mem !== undefined && (live.memory_bytes === undefined || live.memory_bytes > mem || live.memory_bytes < mem - PAGE_BYTES))
    diff('limits.memory_bytes', mem, live.memory_bytes ?? 'unlimited');
  if (pids !== undefined && live.pids !== pids) diff('limits.pids', pids, live.pids ?? 'unlimited');
  if (cpu !== undefined && (live.cpu === undefined || Math.abs(live.cpu - cpu) > CPU_EPSILON))
    diff('limits.cpu', cpu, live.cpu ?? 'unlimited');
  for (const [field, where] of [
    ['mounts.workspace', expected.workspace],
    ['mounts.state_dir', expected.stateDir],
  ] as const) {
    if (where !== undefined && actual.mountModes.get(where) !== 'rw')
      diff(field, `rw at ${where}`, actual.mountModes.get(where) ?? 'absent');
  }
  if (expected.host_root_visible === false && actual.host_root_visible) diff('mounts.host_root_visible', false, true);
  if (!expected.bypassAllowed && bypassFlags.length > 0) diff('bypass_flags', 'none', bypassFlags.join(' '));
  return out;
}
