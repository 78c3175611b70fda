/**
 * `swarm`: each agent a Docker Swarm service of one replica (docs/runners.md "swarm"), placed by Swarm, driven
 * through the manager's Engine API; the turn files travel through the remote-workspace port over the archive API
 * of the engine of the node that runs the task (the node map: GENSWARMS_SWARM_NODES). A node not in the map or
 * not answering → `swarm_node_unreachable`, never a guess.
 */
import type DockerClient from 'dockerode';
import type { LaunchPlan, Runner, RunnerContext, RunnerHandle, SessionDescription } from '../port';
import { RunnerError } from '../errors/runner-error';
import { describePlan } from '../plan/describe';
import { agentIdentityOf } from '../identity/agent-identity';
import { dockerPortOver } from '../docker/dockerode-port';
import { dockerArchiveTransport } from '../docker/archive-transport';
import { remoteWorkspace } from '../remote/remote-workspace';
import { LABEL_SESSION } from '../docker/container-spec';
import { buildServiceSpec, sessionSuffix, swarmNamesFor, type SwarmNames } from './service-spec';
import { dockerClientFor, loadSwarmNodes, parseEngineEndpoint, type EngineAddress, type EngineEndpoint } from './swarm-engine';
import { parseSwarmOptions, planSwarmEgress, planSwarmLaunch } from './swarm-plan';
import {
  createEnvSecret,
  createForwarderService,
  createLauncherConfig,
  createOverlay,
  createServiceRaw,
  listRaw,
  ensureSharedOverlay,
  SWARM_EGRESS_NETWORK,
  SWARM_OPEN_NETWORK,
  labelsOf,
  removeSwarmObjects,
  type SwarmObjects,
  unless404,
} from './swarm-objects';
import { tasksOf, waitForRunningTask } from './swarm-task';
import { SwarmHandle } from './swarm-handle';
import { startSwarmWatcher } from './swarm-receipt-watch';

export interface SwarmRunnerOptions {
  /** The manager engine (`DOCKER_HOST` and its client certificates); unset = the local socket. */
  readonly manager?: EngineEndpoint;
  /** Path of the node map JSON (`GENSWARMS_SWARM_NODES`): nodeId → {host, tls?}. */
  readonly nodesFile?: string;
  /** How long a task may take to reach `running` (a node copying a large image is slow). Default 180 s. */
  readonly taskStartTimeoutMs?: number;
  /**
   * Start the receipt watcher in each task's container (default true). false = poll every 100 ms, as before the push
   * existed (the latency bench's baseline).
   */
  readonly receiptPush?: boolean;
  /** The fallback poll while the watcher is live (default SWARM_RECEIPT_PUSH_POLL_MS; specs lengthen it to prove the push). */
  readonly receiptPushPollMs?: number;
}

/** Default wait for a task to run. */
export const SWARM_TASK_START_TIMEOUT_MS = 180_000;

export function createSwarmRunner(options: SwarmRunnerOptions = {}): Runner {
  let manager: Promise<DockerClient> | undefined;
  const managerClient = (): Promise<DockerClient> => (manager ??= dockerClientFor(parseEngineEndpoint(options.manager)));
  const nodeClients = new Map<string, Promise<DockerClient>>();
  const nodeClient = async (nodeId: string, agent: string): Promise<DockerClient> => {
    const load = await loadSwarmNodes(options.nodesFile);
    const addr: EngineAddress | undefined = load.kind === 'ok' ? load.nodes.get(nodeId) : undefined;
    if (addr === undefined) {
      throw new RunnerError('swarm_node_unreachable', `no engine endpoint for swarm node ${nodeId} (node map: ${load.kind})`, {
        agent,
        details: { node: nodeId },
      });
    }
    const key = `${nodeId} ${addr.kind === 'socket' ? addr.path : `${addr.host}:${addr.port}`}`;
    let c = nodeClients.get(key);
    if (c === undefined) nodeClients.set(key, (c = dockerClientFor(addr)));
    const client = await c;
    const alive = await client.ping().then(
      () => true,
      () => false, // expected: the node's engine does not answer; refused below
    );
    if (!alive)
      throw new RunnerError('swarm_node_unreachable', `the engine of swarm node ${nodeId} does not answer`, {
        agent,
        details: { node: nodeId },
      });
    return client;
  };
  const timeoutMs = options.taskStartTimeoutMs ?? SWARM_TASK_START_TIMEOUT_MS;
  const receiptPush = options.receiptPush !== false;
  const receiptPushPollMs = options.receiptPushPollMs;
  return {
    kind: 'swarm',
    plan: (spec, ctx) => planSwarmLaunch(spec, ctx, options.manager),
    preflight: async (plan) => preflightSwarm(await managerClient(), plan),
    start: async (plan, ctx) =>
      startSwarm({ manager: await managerClient(), nodeClient, timeoutMs, receiptPush, receiptPushPollMs }, plan, ctx),
    reattach: async (description, ctx) =>
      reattachSwarm({ manager: await managerClient(), nodeClient, timeoutMs, receiptPush, receiptPushPollMs }, description, ctx),
  };
}

interface Env {
  readonly manager: DockerClient;
  readonly nodeClient: (nodeId: string, agent: string) => Promise<DockerClient>;
  readonly timeoutMs: number;
  readonly receiptPush: boolean;
  readonly receiptPushPollMs: number | undefined;
}

/** The manager answers and is a manager; a named network exists with swarm scope. */
async function preflightSwarm(docker: DockerClient, plan: LaunchPlan): Promise<void> {
  const agent = plan.spec.agent;
  // expected: an engine that does not answer is refused just below
  const info = (await docker.info().catch(() => undefined)) as { Swarm?: { ControlAvailable?: boolean } } | undefined;
  if (info === undefined) throw new RunnerError('start_failed', 'the swarm manager engine does not answer', { agent });
  if (info.Swarm?.ControlAvailable !== true) throw new RunnerError('start_failed', 'the engine is not a swarm manager', { agent });
  const net = plan.spec.network;
  if (typeof net === 'object') {
    const found = (await unless404(() => docker.getNetwork(net.named).inspect())) as { Scope?: string } | undefined;
    if (found?.Scope !== 'swarm') {
      throw new RunnerError('unsupported_network', `network ${net.named} is not a swarm-scoped overlay network`, {
        agent,
        details: { network: net.named },
      });
    }
  }
}

/** A service of the same name left by an earlier run of this agent (labels must say so) goes first. */
async function removeLeftover(docker: DockerClient, names: SwarmNames, plan: LaunchPlan): Promise<void> {
  for (const name of [names.service, names.forwarder]) {
    const svc = (await unless404(() => docker.getService(name).inspect())) as
      { ID: string; Spec?: { Labels?: Record<string, string> } } | undefined;
    const labels = svc?.Spec?.Labels ?? {};
    if (svc !== undefined && labels['genswarms.swarm'] === plan.spec.swarm && labels['genswarms.agent'] === plan.spec.agent) {
      await removeSwarmObjects(docker, { serviceId: svc.ID });
    }
  }
  // the secret, config and private network of an earlier session of this agent (a crashed orchestrator's)
  const filter = { label: [`genswarms.swarm=${plan.spec.swarm}`, `genswarms.agent=${plan.spec.agent}`] };
  const [secrets, configs, networks] = await Promise.all([
    docker.listSecrets({ filters: JSON.stringify(filter) }),
    docker.listConfigs({ filters: JSON.stringify(filter) }),
    docker.listNetworks({ filters: JSON.stringify(filter) }),
  ]);
  const ids = (xs: unknown[]): string[] => xs.map((x) => String((x as { ID?: string; Id?: string }).ID ?? (x as { Id?: string }).Id));
  const left = [
    ...ids(secrets).map((id) => ({ secretId: id })),
    ...ids(configs).map((id) => ({ configId: id })),
    ...ids(networks).map((id) => ({ networkId: id })),
  ];
  await Promise.all(left.map((o) => removeSwarmObjects(docker, o)));
}

/** Networks of the task by network mode: open → the shared `gs-open` overlay; none → a private internal overlay. */
async function networksFor(
  env: Env,
  plan: LaunchPlan,
  names: SwarmNames,
  objects: SwarmObjects,
  ctx: RunnerContext,
  constraints: readonly string[],
): Promise<string[]> {
  const net = plan.spec.network;
  if (net === 'open') return [await ensureSharedOverlay(env.manager, SWARM_OPEN_NETWORK)];
  if (typeof net === 'object') return [net.named];
  objects.networkId = await createOverlay(env.manager, names.network, labelsOf(plan), true);
  if (net === 'isolated') {
    const { connect } = planSwarmEgress(plan.spec, ctx);
    const egressNet = await ensureSharedOverlay(env.manager, SWARM_EGRESS_NETWORK);
    const { uid, gid } = agentIdentityOf(ctx);
    objects.forwarderId = await createForwarderService(env.manager, plan, names, {
      image: plan.spec.image ?? '',
      connect,
      internalNet: objects.networkId,
      egressNet,
      constraints,
      user: `${uid}:${gid}`,
    });
  }
  return [objects.networkId];
}

async function startSwarm(env: Env, plan: LaunchPlan, ctx: RunnerContext): Promise<RunnerHandle> {
  const { spec } = plan;
  const names = swarmNamesFor(spec.swarm, spec.agent, plan.sessionId);
  const { constraints } = parseSwarmOptions(spec);
  const objects: SwarmObjects = {};
  try {
    await removeLeftover(env.manager, names, plan);
    const networks = await networksFor(env, plan, names, objects, ctx, constraints);
    objects.secretId = await createEnvSecret(env.manager, plan, names);
    objects.configId = await createLauncherConfig(env.manager, plan, names);
    const body = buildServiceSpec(
      plan,
      ctx,
      spec.image ?? '',
      names,
      { secretId: objects.secretId, configId: objects.configId },
      { constraints, networks },
    );
    objects.serviceId = await createServiceRaw(env.manager, body);
    const task = await waitForRunningTask(env.manager, objects.serviceId, { agent: spec.agent, timeoutMs: env.timeoutMs, pollMs: 250 });
    // an isolated agent's route to the LLM is up before the session is: its forwarder's task runs too
    if (objects.forwarderId !== undefined) {
      await waitForRunningTask(env.manager, objects.forwarderId, { agent: spec.agent, timeoutMs: env.timeoutMs, pollMs: 250 });
    }
    const node = await env.nodeClient(task.nodeId, spec.agent);
    const description: SessionDescription = {
      ...describePlan(plan, { containerId: task.containerId }),
      swarmService: { serviceId: objects.serviceId, taskId: task.taskId, nodeId: task.nodeId },
    };
    const handle = await handleFor(env, node, ctx, description, { ...task, serviceId: objects.serviceId }, objects, names.volume, 0);
    return handle;
  } catch (err) {
    await removeSwarmObjects(env.manager, objects).catch(() => undefined); // best-effort: the start error wins
    if (err instanceof RunnerError) throw err;
    throw new RunnerError('start_failed', 'the swarm service could not be created', { agent: spec.agent, cause: err });
  }
}

async function handleFor(
  env: Env,
  node: DockerClient,
  ctx: RunnerContext,
  description: SessionDescription,
  task: { taskId: string; nodeId: string; containerId: string; serviceId: string },
  objects: SwarmObjects,
  volume: string | undefined,
  logsSinceSeconds: number,
): Promise<SwarmHandle> {
  const { uid, gid } = agentIdentityOf(ctx);
  const transport = dockerArchiveTransport(node.getContainer(task.containerId), { owner: { uid, gid } });
  const handle = new SwarmHandle({
    manager: env.manager,
    node,
    nodePort: dockerPortOver(node),
    task,
    description,
    workspace: remoteWorkspace(transport, { remote: '/workspace', local: description.workspace }),
    objects,
    volume,
    logsSinceSeconds,
    ...(env.receiptPush
      ? {
          startWatcher: () => startSwarmWatcher(node.getContainer(task.containerId), `${uid}:${gid}`),
          pushPollMs: env.receiptPushPollMs,
        }
      : {}),
  });
  await handle.attach();
  return handle;
}

/**
 * After an orchestrator restart: adopt the service only if the store's record matches the engine — the service
 * carries this session's label, and its running task is the recorded one on the recorded node. Anything else
 * (gone, ended, rescheduled, node unreachable) → the service and its objects are removed, null returned, and the
 * engine starts the agent afresh.
 */
async function reattachSwarm(env: Env, description: SessionDescription, ctx: RunnerContext): Promise<RunnerHandle | null> {
  const rec = description.swarmService;
  if (description.backend !== 'swarm' || rec === undefined) return null;
  const svc = (await unless404(() => env.manager.getService(rec.serviceId).inspect())) as
    | {
        ID: string;
        Spec?: {
          Name?: string;
          Labels?: Record<string, string>;
          TaskTemplate?: {
            ContainerSpec?: { Secrets?: { SecretID: string }[]; Configs?: { ConfigID: string }[] };
            Networks?: { Target: string }[];
          };
        };
      }
    | undefined;
  if (svc === undefined) return null;
  const cs = svc.Spec?.TaskTemplate?.ContainerSpec;
  const objects: SwarmObjects = {
    serviceId: svc.ID,
    ...(cs?.Secrets?.[0] === undefined ? {} : { secretId: cs.Secrets[0].SecretID }),
    ...(cs?.Configs?.[0] === undefined ? {} : { configId: cs.Configs[0].ConfigID }),
  };
  const forwarder = (await listRaw(env.manager, 'listServices', { label: [`genswarms.forwarder-of=${svc.Spec?.Name ?? ''}`] })) as {
    ID: string;
  }[];
  if (forwarder[0] !== undefined) objects.forwarderId = forwarder[0].ID;
  const net = svc.Spec?.TaskTemplate?.Networks?.[0]?.Target;
  // only none/isolated own their (per-agent, internal) overlay; a named network is the operator's
  if ((description.network === 'none' || description.network === 'isolated') && net !== undefined) objects.networkId = net;
  const discard = async (): Promise<null> => {
    await removeSwarmObjects(env.manager, objects);
    return null;
  };
  if (svc.Spec?.Labels?.[LABEL_SESSION] !== description.sessionId) return discard();
  const tasks = await tasksOf(env.manager, svc.ID);
  const live = tasks.filter((t) => !t.terminal);
  const ours = live.find((t) => t.taskId === rec.taskId);
  if (ours === undefined || live.length !== 1 || ours.nodeId !== rec.nodeId || ours.containerId === undefined) return discard();
  let node: DockerClient;
  try {
    node = await env.nodeClient(rec.nodeId, '');
  } catch {
    return discard(); // expected: the node's engine cannot be reached; never adopt what we cannot read
  }
  // the volume is named after the service and the session (swarmNamesFor), both checked above
  const volume = svc.Spec?.Name === undefined ? undefined : `${svc.Spec.Name}-ws-${sessionSuffix(description.sessionId)}`;
  return handleFor(
    env,
    node,
    ctx,
    description,
    { ...ours, containerId: ours.containerId, serviceId: svc.ID },
    objects,
    volume,
    Math.floor(Date.now() / 1000),
  );
}
