import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { clientName, isTuiClient } from '../client/clients';
import { defaultScreenRules, type ScreenRulesResolver } from '../client/screens/client-screens';
import { planClientLaunch } from '../client/client-launch';
import { clientModeOf } from '../client/client-mode';
import { writeClientHome } from '../state/client-home';
import { ensurePrivateDir, stateDirFor } from '../state/state-dir';
import { ensureWorkspaceDir, linkSkills } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { attachChild } from '../process/child-handle';
import { spawnClient } from '../process/spawn-client';
import { describePlan, newSessionId } from '../plan/describe';
import { startPtyClient } from './pty-client';
import { joinCgroupArgv, RunnerCgroups } from '../cgroup/runner-cgroups';
import type { AgentCgroup } from '../cgroup/agent-cgroup';
import { killAgentCgroup } from '../cgroup/cgroup-ops';
import { assertNoLimitsRequested } from '../cgroup/agent-limits';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import { attachIsolation, isolationCheckOf } from '../isolation/inspect-isolation';
import { agentIdentityOf, privilegeDropWords, workspaceOwners } from '../identity/agent-identity';
import { grantAgentTraversal } from '../identity/agent-traversal';
import { grantClientReach } from '../client/client-install';

/**
 * `local`: the client runs on the host with no boundary — only `network: open` (docs/security.md).
 * The one runner without an env file: the env goes in spawn's `env` (docs/runners.md).
 * Headless clients run with pipes; codex/claude/opencode run in a pty (node-pty).
 */
export function createLocalRunner(opts: { readonly screens?: ScreenRulesResolver } = {}): Runner {
  const cgroups = new RunnerCgroups('local');
  const screens = opts.screens ?? defaultScreenRules;
  return {
    kind: 'local',
    plan: planLocal,
    start: (plan, ctx) => startLocal(plan, ctx, cgroups, screens),
    // Nothing local is ever adopted (the client died with the server); what escaped it is killed here.
    reattach: async (description, ctx) => {
      await cgroups.reapLeftovers(description, ctx);
      return null;
    },
  };
}

/**
 * A local client has no sandbox to die with (bwrap has --die-with-parent): setpriv sets the
 * parent-death signal and execs the client, so a killed server leaves no orphan agent (docs/receipts.md
 * recovery restarts it). Without setpriv the client would outlive a crashed server. A root server's
 * client also gets `--reuid/--regid/--clear-groups` (the agent identity); without setpriv it is refused.
 */
export function withParentDeathSignal(ctx: RunnerContext, argv: readonly string[], agent = ''): readonly string[] {
  const setpriv = ctx.binaries.setpriv;
  if (setpriv === undefined) return [...privilegeDropWords(ctx, agent), ...argv]; // [] unless root, which then refuses
  // A root server's client also drops to the agent uid (the uid rule); setpriv sets the death signal after the switch.
  const drop = privilegeDropWords(ctx, agent).slice(1, -1);
  return [setpriv, '--pdeathsig', 'KILL', ...drop, '--', ...argv];
}

/**
 * The local client's whole launch vector: the client behind its setpriv (death signal, and the uid drop of a
 * root server), behind the cgroup join. The join is a shell script that runs before that setpriv: a leading
 * `setpriv --pdeathsig KILL` covers it too, so a server killed while the join runs leaves no orphan (the
 * inner setpriv sets the signal again after its uid switch, which clears it).
 */
export function buildLocalLaunchArgv(
  ctx: RunnerContext,
  group: AgentCgroup | undefined,
  clientArgv: readonly string[],
  agent: string,
): readonly string[] {
  const inner = joinCgroupArgv(group, withParentDeathSignal(ctx, clientArgv, agent));
  const setpriv = ctx.binaries.setpriv;
  return group === undefined || setpriv === undefined ? inner : [setpriv, '--pdeathsig', 'KILL', '--', ...inner];
}

function planLocal(spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan {
  if (spec.backend !== 'local') throw new RunnerError('validation_failed', 'not a local agent', { agent: spec.agent });
  assertNetworkSupported(spec);
  assertNoLimitsRequested(spec, 'local');
  assertSeccompSupported(spec, 'local', false);
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  privilegeDropWords(ctx, spec.agent); // a root server without setpriv → binary_missing before anything exists
  clientModeOf(spec); // backend.opts.client_mode → validation_failed before anything exists
  const client = planClientLaunch(spec, ctx, { sandbox: false, workspace: spec.workspace, home: stateDir });
  return { spec, sessionId: newSessionId(), stateDir, mounts: [], ...client };
}

async function startLocal(
  plan: LaunchPlan,
  ctx: RunnerContext,
  cgroups: RunnerCgroups,
  screens: ScreenRulesResolver,
): Promise<RunnerHandle> {
  const owner = agentIdentityOf(ctx);
  await ensurePrivateDir(plan.stateDir, ctx.serverUid, owner);
  await ensureWorkspaceDir(plan.spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
  await linkSkills(plan.stateDir, plan.spec.skills, ctx.serverUid, owner);
  await writeClientHome(plan, ctx);
  await grantAgentTraversal(ctx, [plan.stateDir, plan.spec.workspace]);
  await grantClientReach(ctx, plan.clientInstall);
  if (plan.clientArgv.length === 0) throw new RunnerError('invalid_argv', 'empty client argv', { agent: plan.spec.agent });
  // The client joins its cgroup (as the server, before setpriv drops to the agent uid) before it can fork.
  const group = cgroups.groupFor(ctx, plan.spec.swarm, plan.spec.agent);
  if (group !== undefined) await cgroups.prepare(ctx, group);
  const release = group === undefined ? undefined : (): Promise<void> => killAgentCgroup(group);
  const [file, ...args] = buildLocalLaunchArgv(ctx, group, plan.clientArgv, plan.spec.agent) as [string, ...string[]];
  // A failed spawn leaves an empty group: the next start reuses it, a later runner's first start sweeps it.
  if (isTuiClient(plan.spec.client) && clientModeOf(plan.spec) === 'pane') {
    const screen = screens(clientName(plan.spec.client));
    return startPtyClient(plan, file, args, {
      ...(screen === undefined ? {} : { screen }),
      ...(release === undefined ? {} : { cleanup: release }),
    });
  }
  // own process group (detached): stop kills the whole tree
  const child = await spawnClient({ file, args, cwd: plan.spec.workspace, env: plan.env, agent: plan.spec.agent });
  const handle = attachChild(child, {
    description: describePlan(plan, child.pid === undefined ? {} : { pid: child.pid }),
    ...(release === undefined ? {} : { cleanup: release }),
  });
  return attachIsolation(handle, isolationCheckOf(plan), child.pid);
}
