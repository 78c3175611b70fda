import { EgressError, planEgress, probeSocat, startForwarder } from '@genswarms/egress';
import { egressClientOf } from '../network/egress-readopt';
import type { EgressTarget, Forwarder } from '@genswarms/egress';
import type { AgentLaunchSpec, LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { endpointPolicyOf } from '../env/client-env';
import { egressDirFor } from '../sandbox/mounts';

/**
 * `network: isolated`, at plan: the host picks the pin (docs/security.md#11-network-isolation-and-egress). Untrusted endpoint →
 * `endpoint_not_allowed` (host only), none → `endpoint_not_configured`, no socat → `egress_unavailable`.
 * Nothing is created here.
 */
export function planIsolatedEgress(
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
): { target: EgressTarget; egress: NonNullable<LaunchPlan['egress']> } {
  let target: EgressTarget;
  try {
    target = planEgress({ ...(spec.endpoint === undefined ? {} : { agentEndpoint: spec.endpoint }), policy: endpointPolicyOf(ctx) });
  } catch (err) {
    throw toRunnerError(err, spec.agent);
  }
  if (ctx.binaries.socat === undefined) {
    throw new RunnerError('egress_unavailable', 'socat is not installed: isolated agents cannot start (fail-closed)', {
      agent: spec.agent,
    });
  }
  const dir = egressDirFor(ctx.home, spec.swarm, spec.agent);
  return {
    target,
    egress: {
      host: target.host,
      port: target.port,
      tls: target.tls,
      dir,
      pathAndQuery: target.pathAndQuery,
      upstreamHost: target.upstreamHost,
    },
  };
}

/** At start, before anything else exists: socat ≥ 1.7.4, then the forwarder pinned to the plan's target. */
export async function startIsolatedEgress(plan: LaunchPlan, ctx: RunnerContext): Promise<Forwarder> {
  const egress = plan.egress;
  const socat = ctx.binaries.socat;
  if (egress === undefined || socat === undefined)
    throw new RunnerError('egress_unavailable', 'no egress plan for an isolated agent', { agent: plan.spec.agent });
  const probe = await probeSocat(socat);
  if (!probe.ok) throw new RunnerError('egress_unavailable', `socat unusable: ${probe.reason}`, { agent: plan.spec.agent });
  const target: EgressTarget = {
    host: egress.host,
    port: egress.port,
    tls: egress.tls,
    pathAndQuery: egress.pathAndQuery ?? '',
    upstreamHost: egress.upstreamHost ?? egress.host,
  };
  try {
    // docker and bwrap both run the client as the agent identity: the socket is handed to it
    const meter = ctx.egressMeter?.(plan.spec.swarm, plan.spec.agent);
    return await startForwarder({
      socat,
      dir: egress.dir,
      target,
      ...egressClientOf(ctx),
      ...(ctx.binaries.setpriv === undefined ? {} : { setpriv: ctx.binaries.setpriv }),
      ...(meter === undefined ? {} : { meter }),
    });
  } catch (err) {
    throw toRunnerError(err, plan.spec.agent);
  }
}

/** An egress planning failure as the RunnerError of the same code (also used by the swarm runner's plan). */
export function toRunnerError(err: unknown, agent: string): RunnerError {
  if (!(err instanceof EgressError)) return new RunnerError('egress_unavailable', 'egress planning failed', { agent, cause: err });
  const endpoint = (err as EgressError & { endpoint?: string }).endpoint;
  switch (err.code) {
    case 'endpoint_not_allowed':
      return new RunnerError('endpoint_not_allowed', err.message, {
        agent,
        details: { agent, ...(endpoint === undefined ? {} : { endpoint }) },
        cause: err,
      });
    case 'endpoint_not_configured':
      return new RunnerError('endpoint_not_configured', err.message, { agent, details: { agent }, cause: err });
    case 'egress_unavailable':
    case 'forwarder_failed':
      return new RunnerError('egress_unavailable', err.message, { agent, details: { agent }, cause: err });
  }
}
