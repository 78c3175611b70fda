import type { Forwarder } from '@genswarms/egress';
import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { planClientLaunch } from '../client/client-launch';
import { writeClientHome } from '../state/client-home';
import { planMounts } from '../sandbox/mounts';
import { recheckMounts } from '../sandbox/mount-safety';
import { ensurePrivateDir, removeFileIfPresent, stateDirFor, writeEnvFile } from '../state/state-dir';
import { ensureWorkspaceDir } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { attachChild } from '../process/child-handle';
import { spawnClient } from '../process/spawn-client';
import { describePlan, newSessionId } from '../plan/describe';
import { buildBwrapArgs } from './bwrap-args';
import { planIsolatedEgress, startIsolatedEgress } from './egress-plan';
import { watchEgress } from '../network/egress-watch';
import { attachIsolation, isolationCheckOf } from '../isolation/inspect-isolation';
import { agentIdentityOf, privilegeDropWords, workspaceOwners } from '../identity/agent-identity';
import { grantAgentTraversal } from '../identity/agent-traversal';
import { grantClientReach } from '../client/client-install';
import { assertLimitsEnforceable } from '../cgroup/agent-limits';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import { prepareSandboxExtras, sandboxEntryArgv, type SandboxExtras } from './sandbox-extras';

/**
 * `bwrap`: a headless client in a bubblewrap sandbox (docs/runners.md): own user/pid/uts/ipc/cgroup
 * namespaces, `--unshare-net` for none/isolated, workspace rw, state_dir at /root, everything else ro.
 * A root server starts bwrap as the agent identity (setpriv), so it needs unprivileged user namespaces.
 */
export function createBwrapRunner(): Runner {
  return { kind: 'bwrap', plan: planBwrap, start: startBwrap };
}

function planBwrap(spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan {
  if (spec.backend !== 'bwrap') throw new RunnerError('validation_failed', 'not a bwrap agent', { agent: spec.agent });
  assertNetworkSupported(spec);
  if (ctx.binaries.bwrap === undefined) throw new RunnerError('binary_missing', 'bwrap is not installed', { agent: spec.agent });
  assertLimitsEnforceable(spec, ctx); // a limit this host cannot hold → limits_unsupported, never an unlimited start
  assertSeccompSupported(spec, 'bwrap', true);
  privilegeDropWords(ctx, spec.agent); // a root server without setpriv → binary_missing before anything exists
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  const isolated = spec.network === 'isolated' ? planIsolatedEgress(spec, ctx) : undefined;
  const mounts = planMounts(spec, ctx, stateDir, { includeSystem: true });
  const client = planClientLaunch(spec, ctx, {
    sandbox: true,
    workspace: '/workspace',
    home: '/root',
    ...(isolated === undefined ? {} : { egress: isolated.target }),
  });
  return { spec, sessionId: newSessionId(), stateDir, mounts, ...(isolated === undefined ? {} : { egress: isolated.egress }), ...client };
}

async function startBwrap(plan: LaunchPlan, ctx: RunnerContext): Promise<RunnerHandle> {
  const bwrap = ctx.binaries.bwrap;
  if (bwrap === undefined) throw new RunnerError('binary_missing', 'bwrap is not installed', { agent: plan.spec.agent });
  recheckMounts(plan, ctx); // right before anything exists: a path swapped since plan is refused
  let forwarder: Forwarder | undefined;
  let envFile: string | undefined;
  let extras: SandboxExtras | undefined;
  const cleanup = async (): Promise<void> => {
    if (envFile !== undefined) await removeFileIfPresent(envFile);
    if (forwarder !== undefined) await forwarder.stop();
    if (extras !== undefined) await extras.cleanup();
  };
  try {
    if (plan.spec.network === 'isolated') forwarder = await startIsolatedEgress(plan, ctx);
    const owner = agentIdentityOf(ctx);
    await ensurePrivateDir(plan.stateDir, ctx.serverUid, owner);
    await ensureWorkspaceDir(plan.spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
    // bwrap runs as the agent (the uid rule): it must reach every bind source it opens below home
    await grantAgentTraversal(ctx, [plan.stateDir, plan.spec.workspace, ...(plan.egress === undefined ? [] : [plan.egress.dir])]);
    await grantClientReach(ctx, plan.clientInstall);
    envFile = await writeEnvFile(plan.stateDir, plan.env, ctx.serverUid, owner);
    await writeClientHome(plan, ctx);
    extras = await prepareSandboxExtras(plan, ctx);
    const { limits } = extras;
    // A root server starts bwrap as the agent uid: the sandbox's uid 1000 then maps to the agent, never to root.
    // The limit groups are joined and the seccomp filter opened first (as the server): docs/runners.md "Limits", "Seccomp".
    const sandbox = [...privilegeDropWords(ctx, plan.spec.agent), bwrap, ...buildBwrapArgs(plan, ctx, { headless: true })];
    const [file, ...args] = sandboxEntryArgv(plan, ctx, sandbox) as [string, ...string[]];
    // own process group (detached); --die-with-parent ends the sandbox with bwrap
    const child = await spawnClient({ file, args, cwd: '/', env: {}, agent: plan.spec.agent });
    const handle = limits.wrap(
      attachChild(child, { description: describePlan(plan, child.pid === undefined ? {} : { pid: child.pid }), cleanup }),
    );
    handle.onExit(() => {
      void cleanup().catch(() => undefined); // best-effort: on a crash; stop() runs it again and reports
    });
    return attachIsolation(watchEgress(handle, forwarder), isolationCheckOf(plan), child.pid);
  } catch (err) {
    await cleanup();
    throw err;
  }
}
