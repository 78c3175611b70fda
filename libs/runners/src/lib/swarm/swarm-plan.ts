/**
 * The swarm runner's plan (docs/runners.md "swarm"): every refusal before anything exists — the manager engine
 * address (a tcp:// engine without TLS → `remote_engine_insecure`), the network matrix, the endpoint pin of an
 * isolated agent, the client (a command inside the image), env names, binds (none reach a node), limits.
 */
import * as path from 'node:path';
import { buildHostSocatArgs, planEgress, type EgressTarget } from '@genswarms/egress';
import type { AgentLaunchSpec, LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { assertSeccompSupported, isNetworkClosed } from '../seccomp/seccomp-plan';
import { assertArgv } from '../argv/validate-argv';
import { buildClientEnv, endpointPolicyOf } from '../env/client-env';
import { assertEnvEntries, stateDirFor } from '../state/state-dir';
import { bypassNotices, newSessionId } from '../plan/describe';
import { hasBypassFlag } from '../client/clients';
import { toRunnerError } from '../bwrap/egress-plan';
import { buildServiceSpec, SWARM_FORWARDER_PORT, swarmNamesFor } from './service-spec';
import { parseEngineEndpoint, type EngineEndpoint } from './swarm-engine';

/**
 * Recorded (a warning event at each start and re-attach) for a none/isolated swarm agent: Engine API 1.41
 * (Docker 20.10) drops a service's `Privileges.Seccomp` without an error, so its tasks run under the node
 * daemon's default profile, which lets AF_VSOCK and io_uring through (docs/runners.md "swarm", measured).
 */
export const SWARM_UNFILTERED_NOTICE = 'network_unfiltered';

/** `backend.opts` of a swarm agent, checked again here (the config gate checked the shape). */
export interface SwarmOptions {
  readonly constraints: readonly string[];
}

const CONSTRAINT_RE = /^[A-Za-z0-9_.-]{1,128}\s*(==|!=)\s*[A-Za-z0-9_.:/-]{1,128}$/;
const NODE_ID_RE = /^[a-z0-9]{1,64}$/;

/** constraints (key==value | key!=value), replicas 1 only, node (a node id → `node.id==<id>`). */
export function parseSwarmOptions(spec: AgentLaunchSpec): SwarmOptions {
  const o = spec.backendOpts;
  const bad = (why: string): never => {
    throw new RunnerError('validation_failed', `backend.opts: ${why}`, { agent: spec.agent });
  };
  for (const key of Object.keys(o)) if (!['constraints', 'replicas', 'node'].includes(key)) bad(`unknown swarm option ${key}`);
  if (o['replicas'] !== undefined && o['replicas'] !== 1) bad('replicas must be 1');
  const raw = o['constraints'] ?? [];
  if (!Array.isArray(raw) || raw.length > 16 || !raw.every((c): c is string => typeof c === 'string' && CONSTRAINT_RE.test(c))) {
    bad('constraints must be at most 16 strings key==value or key!=value');
  }
  const constraints = [...(raw as string[])];
  const node = o['node'];
  if (node !== undefined) {
    if (typeof node !== 'string' || !NODE_ID_RE.test(node)) bad('node must be a swarm node id');
    constraints.push(`node.id==${String(node)}`);
  }
  return { constraints };
}

function clientArgvOf(spec: AgentLaunchSpec): readonly string[] {
  if (typeof spec.client === 'string') {
    throw new RunnerError('validation_failed', 'the swarm backend runs a command client from its image (client: {command: [...]})', {
      agent: spec.agent,
    });
  }
  const argv = [...spec.client.command];
  assertArgv(argv, spec.agent);
  if (!path.posix.isAbsolute(argv[0] ?? '')) {
    throw new RunnerError('validation_failed', 'a swarm command client needs an absolute executable path inside the image', {
      agent: spec.agent,
    });
  }
  if (hasBypassFlag(argv) && !spec.unsafeBypass)
    throw new RunnerError('bypass_requires_opt_in', 'a bypass flag needs unsafe_bypass: true', { agent: spec.agent });
  return argv;
}

function assertNoBinds(spec: AgentLaunchSpec): void {
  const c = spec.config;
  const binds = (c.extra_ro_binds?.length ?? 0) + (c.extra_rw_binds?.length ?? 0) + spec.skills.length;
  if (binds > 0 || c.client_source === 'host_nix' || c.agent_binary_path !== undefined) {
    throw new RunnerError('validation_failed', 'a swarm agent gets no host binds, skills or host binaries (its node is another machine)', {
      agent: spec.agent,
    });
  }
}

/** The isolated agent's pin (same trust policy as locally) and the socat connect address the forwarder service runs. */
export function planSwarmEgress(spec: AgentLaunchSpec, ctx: RunnerContext): { target: EgressTarget; connect: string } {
  let target: EgressTarget;
  try {
    target = planEgress({ ...(spec.endpoint === undefined ? {} : { agentEndpoint: spec.endpoint }), policy: endpointPolicyOf(ctx) });
  } catch (err) {
    throw toRunnerError(err, spec.agent);
  }
  // The listen half is replaced by a TCP listener inside the internal overlay; the connect half is the validated pin.
  const connect = buildHostSocatArgs('/run/genswarms/egress/llm.sock', target)[1];
  if (connect === undefined) throw new RunnerError('egress_unavailable', 'no egress address', { agent: spec.agent });
  return { target, connect };
}

/** Pure plan; `manager` is the engine address the server was given (DOCKER_HOST + TLS). */
export function planSwarmLaunch(spec: AgentLaunchSpec, ctx: RunnerContext, manager: EngineEndpoint | undefined): LaunchPlan {
  if (spec.backend !== 'swarm') throw new RunnerError('validation_failed', 'not a swarm agent', { agent: spec.agent });
  if (spec.image === undefined) throw new RunnerError('validation_failed', 'a swarm agent needs backend.image', { agent: spec.agent });
  parseEngineEndpoint(manager, spec.agent);
  assertNetworkSupported(spec);
  assertSeccompSupported(spec, 'swarm', false);
  assertNoBinds(spec);
  const options = parseSwarmOptions(spec);
  const clientArgv = clientArgvOf(spec);
  const sessionId = newSessionId();
  const names = swarmNamesFor(spec.swarm, spec.agent, sessionId);
  const egress = spec.network === 'isolated' ? planSwarmEgress(spec, ctx) : undefined;
  const built = buildClientEnv(spec, ctx, {
    sandbox: true,
    workspace: '/workspace',
    home: '/tmp',
    tui: false,
    ...(egress === undefined ? {} : { egress: egress.target }),
  });
  const env: Record<string, string> = { ...built.env };
  if (egress !== undefined)
    env['GENSWARMS_LLM_ENDPOINT'] = `http://${names.forwarder}:${SWARM_FORWARDER_PORT}${egress.target.pathAndQuery}`;
  assertEnvEntries(env);
  const plan: LaunchPlan = {
    spec,
    sessionId,
    stateDir: stateDirFor(ctx.home, spec.swarm, spec.agent),
    clientArgv,
    env,
    mounts: [],
    ...(egress === undefined
      ? {}
      : {
          egress: {
            host: egress.target.host,
            port: egress.target.port,
            tls: egress.target.tls,
            dir: '',
            pathAndQuery: egress.target.pathAndQuery,
            upstreamHost: egress.target.upstreamHost,
          },
        }),
    notices: [...built.notices, ...bypassNotices(clientArgv), ...(isNetworkClosed(spec) ? [SWARM_UNFILTERED_NOTICE] : [])],
  };
  // limits and the uid rule, at plan
  buildServiceSpec(
    plan,
    ctx,
    spec.image,
    names,
    { secretId: 'plan', configId: 'plan' },
    { constraints: options.constraints, networks: [] },
  );
  return plan;
}
