import type { LaunchPlan, RunnerContext } from '../port';
import { joinLimitArgv, limitGroupFor } from '../cgroup/agent-limits';
import { joinSeccompArgv, removeSeccompFilter, writeSeccompFilter } from '../seccomp/seccomp-plan';
import { withLimitGroup, type LimitedSession } from './limited-handle';

/**
 * Pure: what runs before bwrap, outermost first — one `genswarms-cgroup-exec` per limit group (the whole
 * sandbox is in them from its first instruction), then `genswarms-seccomp-exec <filter>` (fd 3 for
 * `bwrap --seccomp 3`), then `sandbox` (setpriv for a root server, bwrap and its argv). Shared by headless
 * bwrap and the tmux pane of runner bwrap.
 */
export function sandboxEntryArgv(plan: LaunchPlan, ctx: RunnerContext, sandbox: readonly string[]): readonly string[] {
  return joinLimitArgv(limitGroupFor(plan.spec, ctx), joinSeccompArgv(plan, ctx, sandbox));
}

/** A started sandbox's extras: its limit session (exit reason, group removal) and the filter file. */
export interface SandboxExtras {
  readonly limits: LimitedSession;
  /** Removes the filter file and the limit groups; safe to call more than once. */
  cleanup(): Promise<void>;
}

/** Start: the limit groups are (re)created with their values and the seccomp filter written, before the spawn. */
export async function prepareSandboxExtras(plan: LaunchPlan, ctx: RunnerContext): Promise<SandboxExtras> {
  const limits = withLimitGroup(limitGroupFor(plan.spec, ctx));
  let filter: string | undefined;
  const cleanup = async (): Promise<void> => {
    await removeSeccompFilter(filter);
    await limits.remove();
  };
  try {
    await limits.prepare();
    filter = await writeSeccompFilter(plan, ctx);
  } catch (err) {
    await cleanup();
    throw err;
  }
  return { limits, cleanup };
}
