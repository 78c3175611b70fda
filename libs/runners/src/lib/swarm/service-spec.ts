/**
 * Pure: the Swarm service create body of one agent (docs/runners.md "swarm"). One replica, restart policy none,
 * labels with ids only, env ONLY through a Docker secret file (the spec's `Env` stays empty), the constant
 * launcher as a Docker config, the workspace a named volume owned by the agent identity, limits from the config.
 */
import { SANDBOX_LAUNCHER_PATH } from '../launcher/launcher';
import { RunnerError } from '../errors/runner-error';
import type { LaunchPlan, RunnerContext } from '../port';
import { agentIdentityOf } from '../identity/agent-identity';
import { parseCpuLimit, parseMemoryLimit, DEFAULT_PIDS_LIMIT, LABEL_AGENT, LABEL_SESSION, LABEL_SWARM } from '../docker/container-spec';

/** Where the env secret appears inside the task (a tmpfs file, mode 0400, owned by the agent). */
export const SWARM_ENV_SECRET_PATH = '/run/secrets/genswarms-env';
/** Size of the agent's workspace volume (a tmpfs-backed local volume on the node, owned by the agent). */
export const SWARM_WORKSPACE_SIZE = '512m';
/** The egress port the forwarder service listens on inside an isolated agent's internal overlay. */
export const SWARM_FORWARDER_PORT = 17080;

/** Generated names of one agent's swarm objects (all derived from swarm, agent and the session id). */
export interface SwarmNames {
  readonly service: string;
  readonly secret: string;
  readonly config: string;
  readonly volume: string;
  /** isolated only */
  readonly network: string;
  readonly forwarder: string;
}

/** The session part of an object name: the session id's first 12 alphanumerics. */
export function sessionSuffix(sessionId: string): string {
  return sessionId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 12);
}

/** `gs-<swarm>-<agent>` + suffixes; the session suffix keeps a crashed run's leftovers apart. */
export function swarmNamesFor(swarm: string, agent: string, sessionId: string): SwarmNames {
  const base = `gs-${swarm}-${agent}`;
  const sid = sessionSuffix(sessionId);
  return {
    service: base,
    secret: `${base}-env-${sid}`,
    config: `${base}-launch-${sid}`,
    volume: `${base}-ws-${sid}`,
    network: `${base}-int-${sid}`,
    forwarder: `${base}-egress`,
  };
}

/** Where the task is placed and how it is networked (resolved by the runner before the spec is built). */
export interface SwarmPlacement {
  readonly constraints: readonly string[];
  /** Overlay network names or ids to attach. */
  readonly networks: readonly string[];
}

/** The ids of the objects the service references, created just before it. */
export interface SwarmRefs {
  readonly secretId: string;
  readonly configId: string;
}

function labelsOf(plan: LaunchPlan): Record<string, string> {
  return { [LABEL_SWARM]: plan.spec.swarm, [LABEL_AGENT]: plan.spec.agent, [LABEL_SESSION]: plan.sessionId };
}

/** Service create body (dockerode `createService` argument, Engine API 1.41). */
export function buildServiceSpec(
  plan: LaunchPlan,
  ctx: RunnerContext,
  image: string,
  names: SwarmNames,
  refs: SwarmRefs,
  placement: SwarmPlacement,
): Record<string, unknown> {
  const { spec } = plan;
  const { uid, gid } = agentIdentityOf(ctx);
  if (uid === 0 || gid === 0) throw new RunnerError('validation_failed', 'a swarm task never runs as uid or gid 0', { agent: spec.agent });
  const memory = parseMemoryLimit(spec.config.memory_limit, spec.agent);
  const nanoCpus = parseCpuLimit(spec.config.cpu_limit, spec.agent);
  const pids = spec.config.pids_limit ?? DEFAULT_PIDS_LIMIT;
  if (!Number.isSafeInteger(pids) || pids < 16)
    throw new RunnerError('validation_failed', 'pids_limit must be an integer >= 16', { agent: spec.agent });
  const labels = labelsOf(plan);
  return {
    Name: names.service,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: image,
        Labels: labels,
        // /bin/sh runs the launcher from the config file (configs carry no exec bit guarantee on every engine)
        Command: ['/bin/sh', SANDBOX_LAUNCHER_PATH, SWARM_ENV_SECRET_PATH],
        Args: [...plan.clientArgv],
        Env: [],
        User: `${uid}:${gid}`,
        Dir: '/workspace',
        ReadOnly: true,
        Init: true,
        CapabilityDrop: ['ALL'],
        Secrets: [
          {
            SecretID: refs.secretId,
            SecretName: names.secret,
            File: { Name: 'genswarms-env', UID: String(uid), GID: String(gid), Mode: 0o400 },
          },
        ],
        Configs: [
          { ConfigID: refs.configId, ConfigName: names.config, File: { Name: SANDBOX_LAUNCHER_PATH, UID: '0', GID: '0', Mode: 0o555 } },
        ],
        Mounts: [
          {
            Type: 'volume',
            Source: names.volume,
            Target: '/workspace',
            VolumeOptions: {
              Labels: labels,
              DriverConfig: {
                Name: 'local',
                Options: { type: 'tmpfs', device: 'tmpfs', o: `size=${SWARM_WORKSPACE_SIZE},uid=${uid},gid=${gid},mode=0700` },
              },
            },
          },
          { Type: 'tmpfs', Target: '/tmp', TmpfsOptions: { SizeBytes: 256 * 1024 * 1024, Mode: 0o1777 } },
        ],
      },
      Resources: {
        Limits: {
          Pids: pids,
          ...(memory === undefined ? {} : { MemoryBytes: memory }),
          ...(nanoCpus === undefined ? {} : { NanoCPUs: nanoCpus }),
        },
        Reservations: { ...(memory === undefined ? {} : { MemoryBytes: memory }) },
      },
      RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
      Placement: { Constraints: [...placement.constraints] },
      Networks: placement.networks.map((Target) => ({ Target })),
    },
    Mode: { Replicated: { Replicas: 1 } },
    // No virtual IP: peers find the task by DNS round robin (IPVS is not needed on the nodes).
    EndpointSpec: { Mode: 'dnsrr' },
  };
}
