import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { EgressTarget } from '@genswarms/egress';
import { EgressError, planEgress } from '@genswarms/egress';
import { buildClientArgv, isUnderSystem, SANDBOX_BIN_DIR } from '../client/clients';
import { buildClientEnv, endpointPolicyOf } from '../env/client-env';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import type { AgentLaunchSpec, LaunchPlan, MountSpec, RunnerContext } from '../port';
import { egressDirFor, planMounts } from '../sandbox/mounts';
import { stateDirFor } from '../state/state-dir';
import { buildContainerSpec, DEFAULT_DOCKER_IMAGE } from './container-spec';
import { localEngineSocket } from './engine-host';

/** EgressError → RunnerError with the same code (CONTRACT §8: `endpoint` = host only). */
export function runnerErrorFromEgress(err: EgressError, agent: string): RunnerError {
  const details = err.endpoint === undefined ? { agent } : { agent, endpoint: err.endpoint };
  const code = err.code === 'forwarder_failed' ? 'egress_unavailable' : err.code;
  return new RunnerError(code, err.message, { agent, details, cause: err });
}

/** The isolated agent's pin, or a RunnerError; nothing is created (CONTRACT §8 table). */
export function planDockerEgress(spec: AgentLaunchSpec, ctx: RunnerContext): EgressTarget {
  if (ctx.binaries.socat === undefined) {
    throw new RunnerError('egress_unavailable', 'network isolated needs socat on the host', { agent: spec.agent, details: { agent: spec.agent } });
  }
  try {
    return planEgress({ ...(spec.endpoint === undefined ? {} : { agentEndpoint: spec.endpoint }), policy: endpointPolicyOf(ctx) });
  } catch (err) {
    if (err instanceof EgressError) throw runnerErrorFromEgress(err, spec.agent);
    throw err;
  }
}

/** genswarms-agent with a node outside the system prefixes: the image's loader runs the host node bound ro. */
function nodeMount(spec: AgentLaunchSpec, ctx: RunnerContext): MountSpec[] {
  if (spec.client !== 'genswarms-agent' || spec.config.agent_binary_path !== undefined || isUnderSystem(ctx.binaries.node)) return [];
  return [{ host: realpathSync(ctx.binaries.node), sandbox: `${SANDBOX_BIN_DIR}/node`, access: 'ro' }];
}

/**
 * The docker runner's plan: every refusal of CONTRACT §8-§10 before anything exists (local engine,
 * network matrix, endpoint pin, argv, env names, binds, limits). Reads only metadata.
 */
export function planDockerLaunch(spec: AgentLaunchSpec, ctx: RunnerContext, defaultImage: string = DEFAULT_DOCKER_IMAGE): LaunchPlan {
  localEngineSocket(ctx.dockerHost, spec.agent);
  assertNetworkSupported(spec);
  const egress = spec.network === 'isolated' ? planDockerEgress(spec, ctx) : undefined;
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  const clientArgv = buildClientArgv(spec, ctx, 'sandbox');
  const { env, notices } = buildClientEnv(spec, ctx, {
    sandbox: true,
    workspace: '/workspace',
    home: '/root',
    tui: false,
    ...(egress === undefined ? {} : { egress }),
  });
  const mounts = [...planMounts(spec, ctx, stateDir, { includeSystem: false }), ...nodeMount(spec, ctx)];
  const plan: LaunchPlan = {
    spec,
    sessionId: randomUUID(),
    stateDir,
    clientArgv,
    env,
    mounts,
    notices: spec.unsafeBypass ? [...notices, 'unsafe_bypass_enabled'] : notices,
    ...(egress === undefined ? {} : { egress: { ...egress, dir: egressDirFor(ctx.home, spec.swarm, spec.agent) } }),
  };
  buildContainerSpec(plan, ctx, spec.image ?? defaultImage); // validates limits at plan time
  return plan;
}
