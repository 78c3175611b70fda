import type { LaunchPlan, RunnerContext } from '../port';
import { SANDBOX_ENV_FILE, SANDBOX_LAUNCHER_PATH } from '../launcher/launcher';
import { seccompFilterOf, SECCOMP_FD } from '../seccomp/seccomp-plan';

/** The sandbox identity: an unprivileged uid/gid inside the user namespace (docs/runners.md). */
export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;

/** Fixed isolation flags, in docs/runners.md order; `--proc`, `--dev`, `--tmpfs` come before every bind. */
const BASE_FLAGS: readonly string[] = [
  '--die-with-parent',
  '--unshare-user',
  '--unshare-pid',
  '--unshare-uts',
  '--unshare-ipc',
  '--unshare-cgroup-try',
  '--uid',
  String(SANDBOX_UID),
  '--gid',
  String(SANDBOX_GID),
  '--clearenv',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  '--tmpfs',
  '/tmp',
  '--chdir',
  '/workspace',
];

/**
 * Pure: the bwrap argv (without the bwrap binary) for a plan — base flags, `--new-session` for
 * headless clients, `--unshare-net` for none/isolated, `--seccomp 3` with a filter (`config.seccomp`, or none/isolated:
 * the network filter), the plan's binds in order, then
 * `-- /run/genswarms/launch /root/.genswarms/env <client argv…>`.
 */
export function buildBwrapArgs(plan: LaunchPlan, _ctx: RunnerContext, opts: { headless: boolean }): readonly string[] {
  const args: string[] = [...BASE_FLAGS];
  if (opts.headless) args.push('--new-session');
  if (plan.spec.network === 'none' || plan.spec.network === 'isolated') args.push('--unshare-net');
  // the filter is on fd 3, opened by genswarms-seccomp-exec; bwrap loads it right before it execs the launcher
  if (seccompFilterOf(plan.spec) !== undefined) args.push('--seccomp', String(SECCOMP_FD));
  for (const mount of plan.mounts) {
    args.push(mount.access === 'rw' ? '--bind' : '--ro-bind', mount.host, mount.sandbox);
  }
  // host_nix: the sandbox root (bwrap's tmpfs holding /bin with the closure's launcher tools) is read-only once all is bound
  if (plan.spec.config.client_source === 'host_nix') args.push('--remount-ro', '/');
  args.push('--', SANDBOX_LAUNCHER_PATH, SANDBOX_ENV_FILE, ...plan.clientArgv);
  return args;
}
