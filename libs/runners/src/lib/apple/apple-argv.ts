import type { LaunchPlan, MountSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { SANDBOX_ENV_FILE, SANDBOX_LAUNCHER_PATH } from '../launcher/launcher';
import { agentIdentityOf } from '../identity/agent-identity';
import { containerNameFor, parseCpuLimit, parseMemoryLimit } from '../docker/container-spec';

/** The image when the agent names none: the same image docker agents use by default. */
export const DEFAULT_APPLE_IMAGE = 'genswarms/agent:latest';
const MIB = 1024 * 1024;

/** A `--mount` value: `type=bind,source=…,target=…[,readonly]`. A comma in a path would split the value: refused. */
export function appleMountValue(mount: MountSpec): string {
  for (const p of [mount.host, mount.sandbox]) {
    if (/[,=\0\n]/.test(p)) {
      throw new RunnerError('unsafe_bind', 'a path holding a comma, "=", NUL or a newline cannot be passed to container --mount', {
        details: { path: mount.origin?.written ?? mount.sandbox },
      });
    }
  }
  return `type=bind,source=${mount.host},target=${mount.sandbox}${mount.access === 'ro' ? ',readonly' : ''}`;
}

/**
 * `memory_limit` → `--memory <MiB>M` (the VM's memory, 1 MiB granularity, rounded up); `cpu_limit` → `--cpus <n>`
 * (whole vCPUs of the VM: a fraction cannot be enforced, `limits_unsupported`); `pids_limit`: the CLI exposes no
 * process-count cgroup → `limits_unsupported`.
 */
export function appleLimitArgs(plan: LaunchPlan): string[] {
  const { spec } = plan;
  const refused: string[] = [];
  if (spec.config.pids_limit !== undefined) refused.push('pids_limit');
  if (spec.config.cpu_limit !== undefined && !Number.isInteger(spec.config.cpu_limit)) refused.push('cpu_limit');
  if (refused.length > 0) {
    throw new RunnerError(
      'limits_unsupported',
      `${refused.join(', ')} cannot be enforced by apple_container (whole vCPUs, no pids limit)`,
      {
        agent: spec.agent,
        details: { agent: spec.agent, keys: refused },
      },
    );
  }
  const memory = parseMemoryLimit(spec.config.memory_limit, spec.agent);
  parseCpuLimit(spec.config.cpu_limit, spec.agent);
  return [
    ...(memory === undefined ? [] : ['--memory', `${Math.ceil(memory / MIB)}M`]),
    ...(spec.config.cpu_limit === undefined ? [] : ['--cpus', String(spec.config.cpu_limit)]),
  ];
}

/** open → the CLI's default network; a name → `--network <name>`. none/isolated never get here (refused at plan). */
function networkArgs(plan: LaunchPlan): string[] {
  const { network } = plan.spec;
  if (network === 'open') return [];
  if (typeof network !== 'string') return ['--network', network.named];
  throw new RunnerError('unsupported_network', `apple_container cannot enforce network ${network}`, { agent: plan.spec.agent });
}

/**
 * Pure: the whole `container run` argv (without the binary), in order — the constant flags, identity, limits,
 * network, mounts, then `<image>` and the launcher's arguments. Env values never appear: they reach the client
 * only through the 0600 env file in the state dir, read and deleted inside by the launcher (the entrypoint).
 */
export function buildAppleRunArgv(plan: LaunchPlan, ctx: RunnerContext, image: string): readonly string[] {
  const { spec } = plan;
  const agent = agentIdentityOf(ctx);
  if (agent.uid === 0) throw new RunnerError('validation_failed', 'the agent uid is never 0', { agent: spec.agent });
  return [
    'run',
    '--rm',
    '--name',
    containerNameFor(spec.swarm, spec.agent),
    '--label',
    `genswarms.swarm=${spec.swarm}`,
    '--label',
    `genswarms.agent=${spec.agent}`,
    '--label',
    `genswarms.session=${plan.sessionId}`,
    '--uid',
    String(agent.uid),
    '--gid',
    String(agent.gid),
    '--workdir',
    '/workspace',
    '--cap-drop',
    'ALL',
    '--tmpfs',
    '/tmp',
    ...appleLimitArgs(plan),
    ...networkArgs(plan),
    ...plan.mounts.flatMap((m) => ['--mount', appleMountValue(m)]),
    '--entrypoint',
    SANDBOX_LAUNCHER_PATH,
    image,
    SANDBOX_ENV_FILE,
    ...plan.clientArgv,
  ];
}
