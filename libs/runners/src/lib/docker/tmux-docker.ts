import type { AgentLaunchSpec, LaunchPlan, RunnerContext, SessionDescription } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { planMounts } from '../sandbox/mounts';
import { recheckMounts } from '../sandbox/mount-safety';
import { ensureWorkspaceDir } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { envFilePath, removeFileIfPresent } from '../state/state-dir';
import type { PaneLaunch } from '../tmux/pane-command';
import type { TmuxInnerRunner } from '../tmux/tmux-runner';
import { buildContainerSpec, containerNameFor, DEFAULT_DOCKER_IMAGE, LABEL_AGENT, LABEL_SESSION, LABEL_SWARM } from './container-spec';
import type { DockerPort } from './docker-port';
import { createDockerodePort } from './dockerode-port';
import { DEFAULT_DOCKER_SOCKET, localEngineSocket } from './engine-host';
import { assertImagePresent } from './image-check';
import { containerStartFailure, engineUnreachable } from './start-failure';
import { workspaceOwners } from '../identity/agent-identity';
import { dockerIsolationCheckFrom, dockerIsolationCheckOf, dockerIsolationReader } from '../isolation/docker-isolation';
import type { IsolationReport } from '../isolation/isolation-report';

/** Seconds the engine waits after SIGTERM before SIGKILL when a tmux+docker session stops. */
export const TMUX_DOCKER_STOP_GRACE_S = 2;

export interface TmuxDockerOptions {
  /** A DockerPort to use (tests may supply one). Default: dockerode on the context's local engine socket. */
  readonly port?: DockerPort;
  /** Image when the agent names none (default `genswarms/agent:latest`; it must hold the TUI client). */
  readonly defaultImage?: string;
}

/**
 * Runner `docker` of the tmux runner (docs/security.md, docs/runners.md): the TUI client runs in container
 * `gs-<swarm>-<agent>` (TTY, stdin open) created — not started — through the Engine API; the pane
 * replays `<docker> start -ai <container>` from the NUL manifest, so tmux stays on the host and the
 * launch vector never appears on a command line.
 */
export function createTmuxDockerRunner(opts: TmuxDockerOptions = {}): TmuxInnerRunner {
  const ports = new Map<string, DockerPort>();
  const portFor = (ctx: RunnerContext): DockerPort => {
    if (opts.port !== undefined) return opts.port;
    const socket = localEngineSocket(ctx.dockerHost);
    let port = ports.get(socket);
    if (port === undefined) ports.set(socket, (port = createDockerodePort(socket)));
    return port;
  };
  const image = (spec: AgentLaunchSpec): string => spec.image ?? opts.defaultImage ?? DEFAULT_DOCKER_IMAGE;
  return {
    plan: (spec, ctx, base) => planTmuxDocker(spec, ctx, base, image(spec)),
    preflight: (plan, ctx) => assertImagePresent(portFor(ctx), image(plan.spec), plan.spec.agent),
    launch: (plan, ctx) => dockerPaneLaunch(plan, ctx),
    prepare: async (plan, ctx) => {
      const port = portFor(ctx);
      const containerId = await createPaneContainer(port, plan, ctx, image(plan.spec));
      return {
        ...dockerPaneLaunch(plan, ctx),
        cleanup: () => removeContainer(port, containerId, envFilePath(plan.stateDir)),
        isolation: dockerIsolationReader(dockerIsolationCheckOf(plan), port, containerId),
      };
    },
    reattach: (description, ctx) => findPaneContainer(portFor(ctx), description),
  };
}

/** Pure: the refusals of the headless docker runner that apply to a pane, and the sandbox mounts. */
export function planTmuxDocker(spec: AgentLaunchSpec, ctx: RunnerContext, base: LaunchPlan, image: string): LaunchPlan {
  if (spec.backend !== 'tmux' || spec.runner !== 'docker')
    throw new RunnerError('validation_failed', 'not a tmux+docker agent', { agent: spec.agent });
  localEngineSocket(ctx.dockerHost, spec.agent); // remote_engine_unsupported
  assertNetworkSupported(spec); // open, none, named; isolated → unsupported_network
  if (ctx.binaries.docker === undefined) throw new RunnerError('binary_missing', 'the docker CLI is not installed', { agent: spec.agent });
  const plan: LaunchPlan = { ...base, mounts: planMounts(spec, ctx, base.stateDir, { includeSystem: false }) };
  buildContainerSpec(plan, ctx, image, { tty: true }); // validates limits at plan time
  return plan;
}

/**
 * docs/runners.md: entry = the absolute docker CLI, words `start -ai <container>`. A non-default
 * local socket (`DOCKER_HOST=unix://…`) is named with `--host` first, since the pane has no DOCKER_HOST.
 */
export function dockerPaneLaunch(plan: LaunchPlan, ctx: RunnerContext): PaneLaunch {
  const docker = ctx.binaries.docker;
  if (docker === undefined) throw new RunnerError('binary_missing', 'the docker CLI is not installed', { agent: plan.spec.agent });
  const socket = localEngineSocket(ctx.dockerHost, plan.spec.agent);
  const host = socket === DEFAULT_DOCKER_SOCKET ? [] : ['--host', `unix://${socket}`];
  return { entry: docker, words: [...host, 'start', '-ai', containerNameFor(plan.spec.swarm, plan.spec.agent)] };
}

/** Creates (does not start) the pane's container; a stopped leftover of the same name is removed first. */
async function createPaneContainer(port: DockerPort, plan: LaunchPlan, ctx: RunnerContext, image: string): Promise<string> {
  recheckMounts(plan, ctx); // again right before the binds are handed to the engine
  const create = buildContainerSpec(plan, ctx, image, { tty: true });
  const agent = plan.spec.agent;
  if (!(await port.ping())) throw engineUnreachable(ctx.dockerHost, agent);
  const old = await port.inspect(create.name);
  if (old?.running === true) throw new RunnerError('start_failed', `container ${create.name} is already running; stop it first`, { agent });
  if (old !== undefined) await port.remove(old.id);
  await ensureWorkspaceDir(plan.spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
  try {
    return await port.create(create);
  } catch (err) {
    throw containerStartFailure(err, create.name, image, agent);
  }
}

/** Stop (SIGTERM, grace, SIGKILL) and remove the container; the env file goes too if the launcher never ran. */
async function removeContainer(port: DockerPort, containerId: string, envFile: string): Promise<void> {
  try {
    await port.stop(containerId, TMUX_DOCKER_STOP_GRACE_S);
    await port.remove(containerId);
  } finally {
    await removeFileIfPresent(envFile);
  }
}

/** After a restart: the session's running container, found by its labels; null when it is gone. */
async function findPaneContainer(
  port: DockerPort,
  description: SessionDescription,
): Promise<{ cleanup(): Promise<void>; isolation?: () => Promise<IsolationReport> } | null> {
  const [found] = await port.listByLabels({ [LABEL_SESSION]: description.sessionId });
  const swarm = found?.labels[LABEL_SWARM];
  const agent = found?.labels[LABEL_AGENT];
  if (found === undefined || swarm === undefined || agent === undefined) return null;
  const state = await port.inspect(found.id);
  if (state?.running !== true || state.name !== containerNameFor(swarm, agent)) {
    await port.remove(found.id);
    return null;
  }
  const check = dockerIsolationCheckFrom(description.isolationCheck); // the stored one, or no check at all
  return {
    cleanup: () => removeContainer(port, found.id, envFilePath(description.stateDir)),
    ...(check === undefined ? {} : { isolation: dockerIsolationReader(check, port, found.id) }),
  };
}
