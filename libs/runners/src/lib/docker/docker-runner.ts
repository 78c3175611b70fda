import { lstat } from 'node:fs/promises';
import type { Forwarder } from '@genswarms/egress';
import { startIsolatedEgress } from '../bwrap/egress-plan';
import { RunnerError } from '../errors/runner-error';
import { describePlan } from '../plan/describe';
import { ensureWorkspaceDir } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { recheckMounts } from '../sandbox/mount-safety';
import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle, SessionDescription } from '../port';
import { pinOfPlan } from '../network/egress-pin';
import { watchEgress } from '../network/egress-watch';
import { attachDockerIsolation, dockerIsolationCheckFrom, dockerIsolationCheckOf } from '../isolation/docker-isolation';
import { readoptEgress, removeEgressDirSafely } from '../network/egress-readopt';
import { ensurePrivateDir, envFilePath, removeFileIfPresent, stateDirFor, writeEnvFile } from '../state/state-dir';
import { buildContainerSpec, containerNameFor, DEFAULT_DOCKER_IMAGE, LABEL_AGENT, LABEL_SESSION, LABEL_SWARM } from './container-spec';
import { DockerHandle } from './docker-handle';
import { assertImagePresent } from './image-check';
import { containerStartFailure, engineUnreachable } from './start-failure';
import { planDockerLaunch } from './docker-plan';
import type { DockerPort } from './docker-port';
import { createDockerodePort } from './dockerode-port';
import { localEngineSocket } from './engine-host';
import { agentIdentityOf, workspaceOwners } from '../identity/agent-identity';
import { writeClientHome } from '../state/client-home';

export interface DockerRunnerOptions {
  /** A DockerPort to use (tests: a fake). Default: dockerode on the local engine socket. */
  readonly port?: DockerPort;
  /** `DOCKER_HOST` for pause/resume (which get no context); start uses the context's. */
  readonly dockerHost?: string;
  /** Image when the agent names none (default `genswarms/agent:latest`). */
  readonly defaultImage?: string;
}

/** The docker Runner plus swarm-wide pause/resume. */
export interface DockerRunner extends Runner {
  /** Pauses every running container of `swarm`; returns how many were paused. */
  pauseSwarm(swarm: string): Promise<number>;
  /** Unpauses every paused container of `swarm`; returns how many were resumed. */
  resumeSwarm(swarm: string): Promise<number>;
}

/** docs/runners.md: one container per agent through the Engine API (dockerode behind DockerPort). */
export function createDockerRunner(opts: DockerRunnerOptions = {}): DockerRunner {
  const ports = new Map<string, DockerPort>();
  const active: ActiveSessions = new Map();
  const portFor = (dockerHost: string | undefined): DockerPort => {
    if (opts.port !== undefined) return opts.port;
    const socket = localEngineSocket(dockerHost);
    let port = ports.get(socket);
    if (port === undefined) ports.set(socket, (port = createDockerodePort(socket)));
    return port;
  };
  const defaultImage = opts.defaultImage ?? DEFAULT_DOCKER_IMAGE;
  return {
    kind: 'docker',
    plan: (spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan => planDockerLaunch(spec, ctx, defaultImage),
    preflight: (plan: LaunchPlan, ctx: RunnerContext): Promise<void> =>
      assertImagePresent(portFor(ctx.dockerHost), plan.spec.image ?? defaultImage, plan.spec.agent),
    start: (plan: LaunchPlan, ctx: RunnerContext): Promise<RunnerHandle> =>
      startContainer(portFor(ctx.dockerHost), plan, ctx, defaultImage, active),
    reattach: (description: SessionDescription, ctx: RunnerContext): Promise<RunnerHandle | null> =>
      reattachContainer(portFor(ctx.dockerHost), description, ctx, active),
    pauseSwarm: (swarm: string): Promise<number> => setSwarmPaused(portFor(opts.dockerHost), swarm, true),
    resumeSwarm: (swarm: string): Promise<number> => setSwarmPaused(portFor(opts.dockerHost), swarm, false),
  };
}

/** This runner's live sessions by container name: a new start of the same agent stops the old one first. */
type ActiveSessions = Map<string, DockerHandle>;

/** Removes an old container of the same name (a previous run of this agent). */
async function removeByName(port: DockerPort, name: string): Promise<void> {
  const old = await port.inspect(name);
  if (old !== undefined) await port.remove(old.id);
}

async function startContainer(
  port: DockerPort,
  plan: LaunchPlan,
  ctx: RunnerContext,
  defaultImage: string,
  active: ActiveSessions,
): Promise<RunnerHandle> {
  recheckMounts(plan, ctx); // before the engine is touched: a bind source swapped since plan is refused
  const create = buildContainerSpec(plan, ctx, plan.spec.image ?? defaultImage);
  const agent = plan.spec.agent;
  if (!(await port.ping())) throw engineUnreachable(ctx.dockerHost, agent);
  await active.get(create.name)?.stop({ graceMs: 0 }); // its container, env file and forwarder share our paths
  // socat probe and forwarder first: a refusal leaves nothing behind (docs/security.md).
  const forwarder: Forwarder | undefined = plan.egress === undefined ? undefined : await startIsolatedEgress(plan, ctx);
  const envFile = envFilePath(plan.stateDir);
  let containerId: string | undefined;
  try {
    await ensurePrivateDir(plan.stateDir, ctx.serverUid, agentIdentityOf(ctx));
    await ensureWorkspaceDir(plan.spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
    await removeByName(port, create.name);
    await writeEnvFile(plan.stateDir, plan.env, ctx.serverUid, agentIdentityOf(ctx));
    await writeClientHome(plan, ctx);
    const envId = await lstat(envFile, { bigint: true });
    containerId = await port.create(create);
    const pin = pinOfPlan(plan);
    const description: SessionDescription = {
      ...describePlan(plan, { containerId }),
      ...(pin === undefined ? {} : { egress: pin }),
      isolationCheck: dockerIsolationCheckOf(plan),
    };
    const handle = new DockerHandle({
      port,
      containerId,
      description,
      envFile: { path: envFile, dev: envId.dev, ino: envId.ino, birthtimeNs: envId.birthtimeNs },
      logsSinceSeconds: 0,
      ...(forwarder === undefined ? {} : { forwarder }),
    });
    await port.start(containerId);
    await handle.attach();
    track(active, create.name, handle);
    return attachDockerIsolation(watchEgress(handle, forwarder), dockerIsolationCheckFrom(description.isolationCheck), port, containerId);
  } catch (err) {
    if (containerId !== undefined) await port.remove(containerId).catch(() => undefined); // best-effort: cleanup; the start error wins
    await removeFileIfPresent(envFile);
    await forwarder?.stop();
    if (err instanceof RunnerError) throw err;
    throw containerStartFailure(err, create.name, create.Image, agent);
  }
}

/** Remembers a live handle under its container name until it exits. */
function track(active: ActiveSessions, name: string, handle: DockerHandle): void {
  active.set(name, handle);
  handle.onExit(() => {
    if (active.get(name) === handle) active.delete(name);
  });
}

/**
 * After a server restart: adopt the session's container if it still runs. An isolated agent's
 * forwarder died with us: the stored pin is re-validated against the current trust policy and the
 * egress directory checked, then a fresh forwarder listens on the same socket path (the launcher's
 * bridge connects per connection) and the handle owns it. Anything else (gone, stopped, no/untrusted/
 * hostile pin, unsafe directory, no socat) → the container, env file and egress directory are removed
 * and null returned, so the engine starts the agent afresh.
 */
async function reattachContainer(
  port: DockerPort,
  description: SessionDescription,
  ctx: RunnerContext,
  active: ActiveSessions,
): Promise<RunnerHandle | null> {
  const [found] = await port.listByLabels({ [LABEL_SESSION]: description.sessionId });
  if (found === undefined) return null;
  const state = await port.inspect(found.id);
  const swarm = found.labels[LABEL_SWARM];
  const agent = found.labels[LABEL_AGENT];
  const isolated = description.network === 'isolated';
  const discard = (): Promise<null> => discardContainer(port, found.id, ctx, { swarm, agent, isolated });
  if (state === undefined || !state.running) return discard();
  let forwarder: Forwarder | undefined;
  let adopted: SessionDescription = { ...description, containerId: found.id };
  if (isolated) {
    if (swarm === undefined || agent === undefined) return discard();
    const readopt = await readoptEgress({ description, ctx, swarm, agent });
    if (readopt.kind === 'refused') return discard();
    forwarder = readopt.forwarder;
    adopted = { ...adopted, egress: readopt.pin };
  }
  const handle = new DockerHandle({
    port,
    containerId: found.id,
    description: adopted,
    logsSinceSeconds: Math.floor(Date.now() / 1000),
    ...(forwarder === undefined ? {} : { forwarder }),
  });
  try {
    await handle.attach();
  } catch (err) {
    await forwarder?.stop();
    throw err;
  }
  if (swarm !== undefined && agent !== undefined) track(active, containerNameFor(swarm, agent), handle);
  return attachDockerIsolation(watchEgress(handle, forwarder), dockerIsolationCheckFrom(description.isolationCheck), port, found.id);
}

/** Not adopted: the container, its env file and (isolated) its egress directory go. */
async function discardContainer(
  port: DockerPort,
  id: string,
  ctx: RunnerContext,
  who: { swarm: string | undefined; agent: string | undefined; isolated: boolean },
): Promise<null> {
  await port.stop(id, 0);
  await port.remove(id);
  if (who.swarm !== undefined && who.agent !== undefined) {
    await removeFileIfPresent(envFilePath(stateDirFor(ctx.home, who.swarm, who.agent)));
    if (who.isolated) await removeEgressDirSafely(ctx.home, who.swarm, who.agent);
  }
  return null;
}

async function setSwarmPaused(port: DockerPort, swarm: string, paused: boolean): Promise<number> {
  const containers = await port.listByLabels({ [LABEL_SWARM]: swarm });
  let count = 0;
  for (const c of containers) {
    if (paused && c.state === 'running') {
      await port.pause(c.id);
      count += 1;
    } else if (!paused && c.state === 'paused') {
      await port.unpause(c.id);
      count += 1;
    }
  }
  return count;
}
