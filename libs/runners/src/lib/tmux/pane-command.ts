import type { LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { buildBwrapArgs } from '../bwrap/bwrap-args';
import { LAUNCHER_PATH } from '../launcher/launcher';
import { envFilePath } from '../state/state-dir';
import { privilegeDropWords } from '../identity/agent-identity';
import { tmuxConst, tmuxInt, tmuxPath, type TmuxWord } from './tmux-words';
import { agentCgroupFor } from '../cgroup/agent-cgroup';
import { joinCgroupArgv } from '../cgroup/runner-cgroups';
import { sandboxEntryArgv } from '../bwrap/sandbox-extras';

/** What xargs replays in the pane: a constant absolute entry and the manifest's words. */
export interface PaneLaunch {
  readonly entry: string;
  readonly words: readonly string[];
}

/**
 * docs/runners.md entries: runner `none` → the constant launcher with `<env-file> <client argv…>`
 * (behind `setpriv --reuid U --regid G --clear-groups --` when the server is root: the uid rule);
 * both behind `genswarms-cgroup-exec <cgroup.procs>` when the host tracks agents by cgroup;
 * runner `bwrap` → the bwrap binary with its argv (no `--new-session`: a TUI keeps its terminal), behind
 * the same setpriv when the server is root.
 */
export function paneLaunchFor(plan: LaunchPlan, ctx: RunnerContext): PaneLaunch {
  const runner = plan.spec.runner ?? 'none';
  switch (runner) {
    case 'none': {
      const launch = [LAUNCHER_PATH, envFilePath(plan.stateDir), ...plan.clientArgv];
      // A root tmux server's pane drops to the agent uid after xargs (root) read the 0400 manifest.
      // First of all (as root, before any drop) the pane's client joins its cgroup, so nothing it forks escapes stop.
      const group = agentCgroupFor(ctx.processTracking, ctx.home, 'tmux', plan.spec.swarm, plan.spec.agent);
      const [entry, ...words] = joinCgroupArgv(group, [...privilegeDropWords(ctx, plan.spec.agent), ...launch]) as [string, ...string[]];
      return { entry, words };
    }
    case 'bwrap': {
      const bwrap = ctx.binaries.bwrap;
      if (bwrap === undefined) throw new RunnerError('binary_missing', 'bwrap is not installed', { agent: plan.spec.agent });
      // A root server starts bwrap itself as the agent uid: its user namespace then maps the sandbox's
      // uid 1000 to the agent, not to root (a setuid file made inside would otherwise be root's on the host).
      // The limit groups are joined and the seccomp filter opened first, before setpriv and bwrap.
      const sandbox = [...privilegeDropWords(ctx, plan.spec.agent), bwrap, ...buildBwrapArgs(plan, ctx, { headless: false })];
      const [entry, ...words] = sandboxEntryArgv(plan, ctx, sandbox) as [string, ...string[]];
      return { entry, words };
    }
    case 'docker':
      throw new RunnerError('validation_failed', 'tmux runner docker is not available in this build', { agent: plan.spec.agent });
  }
}

/** The exact xargs argv as tmux words: paths single-quoted, flags constant, counts decimal. */
export function xargsArgvToTmuxWords(argv: readonly string[]): TmuxWord[] {
  const [xargs, z, r, x, n, count, s, size, a, manifest, dashes, entry, ...rest] = argv;
  const shape = z === '-0' && r === '-r' && x === '-x' && n === '-n' && s === '-s' && a === '-a' && dashes === '--';
  if (!shape || rest.length !== 0 || xargs === undefined || manifest === undefined || entry === undefined) {
    throw new RunnerError('runner_error', 'unexpected xargs argv shape');
  }
  return [
    tmuxPath(xargs),
    ...['-0', '-r', '-x', '-n'].map(tmuxConst),
    tmuxInt(Number(count)),
    tmuxConst('-s'),
    tmuxInt(Number(size)),
    tmuxConst('-a'),
    tmuxPath(manifest),
    tmuxConst('--'),
    tmuxPath(entry),
  ];
}
