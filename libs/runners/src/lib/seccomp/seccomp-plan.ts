import { constants as fsc, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { LAUNCH_ID_RE, manifestDirFor } from '../manifest/argv-manifest';
import { assertDescriptorPath, ensurePrivateDir, removeFileIfPresent } from '../state/state-dir';
import { buildSeccompFilter, type FilterOptions } from './default-filter';
import { seccompArchOf, type SeccompArch } from './syscall-tables';

/** The constant script that opens the filter on fd SECCOMP_FD and execs (assets/genswarms-seccomp-exec). */
export const SECCOMP_EXEC_PATH: string = path.resolve(__dirname, '..', '..', '..', 'assets', 'genswarms-seccomp-exec');
/** The descriptor `bwrap --seccomp` reads the filter from. */
export const SECCOMP_FD = 3;

export function isSeccompRequested(spec: AgentLaunchSpec): boolean {
  return spec.config.seccomp !== undefined;
}

/** `network: none|isolated`: the network filter is always on (a door such as AF_VSOCK ignores network namespaces). */
export function isNetworkClosed(spec: AgentLaunchSpec): boolean {
  return spec.network === 'none' || spec.network === 'isolated';
}

/** Pure: what the sandbox's filter holds, or undefined when it gets none (network open or named, no `seccomp`). */
export function seccompFilterOf(spec: AgentLaunchSpec): Omit<FilterOptions, 'arch'> | undefined {
  const hardening = isSeccompRequested(spec);
  const restrictSocketFamilies = isNetworkClosed(spec);
  return hardening || restrictSocketFamilies ? { hardening, restrictSocketFamilies } : undefined;
}

/**
 * Plan: `config.seccomp` is honoured only where a filter can be loaded (bwrap, headless or tmux `runner: bwrap`)
 * and for an architecture with a syscall table; anything else → `seccomp_unsupported` (agent), never a start
 * without the filter that was asked for. Where a filter can be loaded, none/isolated need one too: the same
 * refusal when the architecture has no table.
 */
export function assertSeccompSupported(spec: AgentLaunchSpec, backend: string, canFilter: boolean, nodeArch: string = process.arch): void {
  const refuse = (what: string, why: string): never => {
    throw new RunnerError('seccomp_unsupported', `${what} cannot be applied: ${why}`, {
      agent: spec.agent,
      details: { agent: spec.agent },
    });
  };
  const noTable = seccompArchOf(nodeArch) === undefined;
  if (!isSeccompRequested(spec)) {
    if (canFilter && isNetworkClosed(spec) && noTable)
      refuse(`the network filter of network ${String(spec.network)}`, `no syscall table for ${nodeArch} (x86_64 and aarch64 only)`);
    return;
  }
  const what = `seccomp ${String(spec.config.seccomp)}`;
  if (spec.config.seccomp !== 'default') refuse(what, 'the only filter is "default"');
  if (!canFilter) refuse(what, `backend ${backend} loads no genswarms filter (bwrap and tmux runner bwrap do)`);
  if (noTable) refuse(what, `no syscall table for ${nodeArch} (x86_64 and aarch64 only)`);
}

/** `<home>/manifests/<swarm>/<agent>/<session-id>.bpf`: server-owned (0700 dir, 0400 file), never inside the sandbox. */
export function seccompFilterPath(plan: LaunchPlan, ctx: RunnerContext): string {
  if (!LAUNCH_ID_RE.test(plan.sessionId)) throw new RunnerError('invalid_argv', 'session id must match ^[a-z0-9_-]{1,64}$');
  return path.join(manifestDirFor(ctx.home, plan.spec.swarm, plan.spec.agent), `${plan.sessionId}.bpf`);
}

/** `argv` behind `genswarms-seccomp-exec <filter>` when the plan has a filter (bwrap then gets `--seccomp 3`). */
export function joinSeccompArgv(plan: LaunchPlan, ctx: RunnerContext, argv: readonly string[]): readonly string[] {
  return seccompFilterOf(plan.spec) !== undefined ? [SECCOMP_EXEC_PATH, seccompFilterPath(plan, ctx), ...argv] : argv;
}

/** Start: compiles the filter and writes it exclusively (O_EXCL|O_NOFOLLOW, 0400); returns its path, or undefined. */
export async function writeSeccompFilter(plan: LaunchPlan, ctx: RunnerContext): Promise<string | undefined> {
  const kind = seccompFilterOf(plan.spec);
  if (kind === undefined) return undefined;
  const arch = seccompArchOf(process.arch) as SeccompArch;
  const filter = buildSeccompFilter({ arch, ...kind });
  const file = seccompFilterPath(plan, ctx);
  await ensurePrivateDir(path.dirname(file), ctx.serverUid);
  const handle = await fsp.open(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    await assertDescriptorPath(handle, file);
    await handle.writeFile(filter);
    await handle.chmod(0o400);
  } finally {
    await handle.close();
  }
  return file;
}

export async function removeSeccompFilter(file: string | undefined): Promise<void> {
  if (file !== undefined) await removeFileIfPresent(file);
}
