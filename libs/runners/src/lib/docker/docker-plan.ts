import { realpathSync } from 'node:fs';
import { isUnderSystem, SANDBOX_BIN_DIR } from '../client/clients';
import { planClientLaunch } from '../client/client-launch';
import { runsGenswarmsAgent } from '../client/client-mode';
import { assertNetworkSupported } from '../network/network-policy';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import type { AgentLaunchSpec, LaunchPlan, MountSpec, RunnerContext } from '../port';
import { newSessionId } from '../plan/describe';
import { planIsolatedEgress } from '../bwrap/egress-plan';
import { planMounts } from '../sandbox/mounts';
import { stateDirFor } from '../state/state-dir';
import { RunnerError } from '../errors/runner-error';
import { buildContainerSpec, DEFAULT_DOCKER_IMAGE } from './container-spec';
import { localEngineSocket } from './engine-host';

/** genswarms-agent with a node outside the system prefixes: bind the host node where the argv expects it. */
function nodeMount(spec: AgentLaunchSpec, ctx: RunnerContext): MountSpec[] {
  if (!runsGenswarmsAgent(spec) || isUnderSystem(ctx.binaries.node)) return [];
  return [{ host: realpathSync(ctx.binaries.node), sandbox: `${SANDBOX_BIN_DIR}/node`, access: 'ro' }];
}

/**
 * The docker runner's plan: every refusal of docs/security.md, docs/runners.md before anything exists (local engine,
 * network matrix, endpoint pin, argv, env names, binds, limits). Reads only metadata.
 */
export function planDockerLaunch(spec: AgentLaunchSpec, ctx: RunnerContext, defaultImage: string = DEFAULT_DOCKER_IMAGE): LaunchPlan {
  if (spec.backend !== 'docker') throw new RunnerError('validation_failed', 'not a docker agent', { agent: spec.agent });
  localEngineSocket(ctx.dockerHost, spec.agent);
  assertNetworkSupported(spec);
  assertSeccompSupported(spec, 'docker', false); // docker keeps its engine's own default profile; config.seccomp is refused
  const isolated = spec.network === 'isolated' ? planIsolatedEgress(spec, ctx) : undefined;
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  const client = planClientLaunch(spec, ctx, {
    sandbox: true,
    workspace: '/workspace',
    home: '/root',
    tui: false,
    ...(isolated === undefined ? {} : { egress: isolated.target }),
  });
  const plan: LaunchPlan = {
    spec,
    sessionId: newSessionId(),
    stateDir,
    mounts: [...planMounts(spec, ctx, stateDir, { includeSystem: false }), ...nodeMount(spec, ctx)],
    ...(isolated === undefined ? {} : { egress: isolated.egress }),
    ...client,
  };
  buildContainerSpec(plan, ctx, spec.image ?? defaultImage); // validates limits at plan time
  return plan;
}
