import { SANDBOX_ENV_FILE, SANDBOX_LAUNCHER_PATH } from '../launcher/launcher';
import { RunnerError } from '../errors/runner-error';
import type { LaunchPlan, NetworkMode, RunnerContext } from '../port';
import type { ContainerCreateSpec, DockerBindMount } from './docker-port';
import { agentIdentityOf } from '../identity/agent-identity';
import { isNetworkClosed } from '../seccomp/seccomp-plan';
import { dockerNetworkSecurityOpt } from './docker-seccomp';

/** Label keys on every container we create (ids only, never env values). */
export const LABEL_SWARM = 'genswarms.swarm';
export const LABEL_AGENT = 'genswarms.agent';
export const LABEL_SESSION = 'genswarms.session';
/** Image used when the agent names none (docs/ir.md: bare `"docker"`). */
export const DEFAULT_DOCKER_IMAGE = 'genswarms/agent:latest';
/** docs/runners.md default `PidsLimit`. */
export const DEFAULT_PIDS_LIMIT = 512;
/** Private /tmp of every container. */
export const CONTAINER_TMPFS = 'rw,nosuid,size=256m';

const MEMORY_RE = /^([0-9]{1,12})([kmg])$/;
const MEMORY_UNIT_BYTES: Readonly<Record<string, number>> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * `uid:gid` of the container's process: the agent identity (docs/security.md#one-identity-per-agent), never 0.
 * Numeric, so the image's /etc/passwd cannot remap it; a 0 here is a bug, refused rather than run.
 */
export function containerUser(ctx: RunnerContext): string {
  const { uid, gid } = agentIdentityOf(ctx);
  if (uid === 0 || gid === 0) throw new RunnerError('validation_failed', 'a container never runs as uid or gid 0');
  return `${uid}:${gid}`;
}

/** `gs-<swarm>-<agent>` (both are Names, so the result is a valid container name). */
export function containerNameFor(swarm: string, agent: string): string {
  return `gs-${swarm}-${agent}`;
}

/** `memory_limit` (`^[0-9]+[kmg]$`) → bytes; undefined when unset; otherwise `validation_failed`. */
export function parseMemoryLimit(raw: string | undefined, agent: string): number | undefined {
  if (raw === undefined) return undefined;
  const match = MEMORY_RE.exec(raw);
  const bytes = match === null ? NaN : Number(match[1]) * (MEMORY_UNIT_BYTES[match[2] ?? ''] ?? NaN);
  if (!Number.isSafeInteger(bytes) || bytes < 4 * 1024 ** 2) {
    throw new RunnerError('validation_failed', 'memory_limit must match ^[0-9]+[kmg]$ and be at least 4m', { agent });
  }
  return bytes;
}

/** `cpu_limit` (> 0 CPUs) → NanoCpus. */
export function parseCpuLimit(raw: number | undefined, agent: string): number | undefined {
  if (raw === undefined) return undefined;
  const nano = Math.round(raw * 1e9);
  if (!Number.isFinite(raw) || raw <= 0 || !Number.isSafeInteger(nano) || nano < 1) {
    throw new RunnerError('validation_failed', 'cpu_limit must be a number of CPUs > 0', { agent });
  }
  return nano;
}

function parsePidsLimit(raw: number | undefined, agent: string): number {
  if (raw === undefined) return DEFAULT_PIDS_LIMIT;
  if (!Number.isSafeInteger(raw) || raw < 16) throw new RunnerError('validation_failed', 'pids_limit must be an integer >= 16', { agent });
  return raw;
}

/** open → the default bridge; none and isolated → no network (isolated leaves only via the bound socket); named → that network. */
export function networkModeFor(network: NetworkMode): string {
  if (network === 'open') return 'bridge';
  if (network === 'none' || network === 'isolated') return 'none';
  return network.named;
}

export interface ContainerSpecOptions {
  /** tmux+docker: a TTY with stdin open and attached, for `docker start -ai` in the pane. Default false (headless). */
  readonly tty?: boolean;
}

/** `no-new-privileges`, and for none/isolated the engine's default seccomp profile plus the network denies. */
export function securityOptsFor(spec: LaunchPlan['spec']): string[] {
  return ['no-new-privileges:true', ...(isNetworkClosed(spec) ? [dockerNetworkSecurityOpt(spec.agent).opt] : [])];
}

/**
 * The Engine API create body of docs/runners.md for a docker plan (pure but for reading the constant captured
 * seccomp profile of none/isolated). `Env` is always empty: values reach the client only through the 0600 env
 * file the launcher reads and deletes.
 */
export function buildContainerSpec(
  plan: LaunchPlan,
  ctx: RunnerContext,
  image: string,
  opts: ContainerSpecOptions = {},
): ContainerCreateSpec {
  const tty = opts.tty ?? false;
  const { spec } = plan;
  const memory = parseMemoryLimit(spec.config.memory_limit, spec.agent);
  const nanoCpus = parseCpuLimit(spec.config.cpu_limit, spec.agent);
  const mounts: DockerBindMount[] = plan.mounts.map((m) => ({
    Type: 'bind',
    Source: m.host,
    Target: m.sandbox,
    ReadOnly: m.access === 'ro',
  }));
  return {
    name: containerNameFor(spec.swarm, spec.agent),
    Image: image,
    Entrypoint: [SANDBOX_LAUNCHER_PATH, SANDBOX_ENV_FILE],
    Cmd: [...plan.clientArgv],
    Env: [],
    User: containerUser(ctx),
    WorkingDir: '/workspace',
    Labels: { [LABEL_SWARM]: spec.swarm, [LABEL_AGENT]: spec.agent, [LABEL_SESSION]: plan.sessionId },
    Tty: tty,
    OpenStdin: tty,
    StdinOnce: false,
    AttachStdin: tty,
    AttachStdout: tty,
    AttachStderr: tty,
    HostConfig: {
      NetworkMode: networkModeFor(spec.network),
      CapDrop: ['ALL'],
      SecurityOpt: securityOptsFor(spec),
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': CONTAINER_TMPFS },
      Init: true,
      Privileged: false,
      RestartPolicy: { Name: 'no' },
      PidsLimit: parsePidsLimit(spec.config.pids_limit, spec.agent),
      ...(memory === undefined ? {} : { Memory: memory }),
      ...(nanoCpus === undefined ? {} : { NanoCpus: nanoCpus }),
      Mounts: mounts,
    },
  };
}
