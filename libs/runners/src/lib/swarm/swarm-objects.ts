/**
 * The swarm objects of one agent on the manager (docs/runners.md "swarm"): the env secret, the launcher config,
 * the per-agent internal overlay (none, isolated), the shared egress overlay and the forwarder service (isolated),
 * the service itself. Every object carries the genswarms labels (ids only); removal is by id and tolerant.
 */
import { promises as fsp } from 'node:fs';
import type DockerClient from 'dockerode';
import { LAUNCHER_PATH } from '../launcher/launcher';
import { LABEL_AGENT, LABEL_SESSION, LABEL_SWARM } from '../docker/container-spec';
import type { LaunchPlan } from '../port';
import { SWARM_FORWARDER_PORT, type SwarmNames } from './service-spec';

/** The shared non-internal overlay the forwarder services reach the LLM through. */
export const SWARM_EGRESS_NETWORK = 'gs-egress';
/** The shared non-internal overlay `open` agents are on (outbound through each node's docker_gwbridge). */
export const SWARM_OPEN_NETWORK = 'gs-open';
/** Label marking a forwarder service (its value: the agent's service name). */
export const LABEL_FORWARDER_OF = 'genswarms.forwarder-of';

function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Runs `op`, ignoring "absent" (404) and "in use / conflict" (409) answers: cleanup is best-effort by design. */
export async function tolerant(op: () => Promise<unknown>): Promise<void> {
  try {
    await op();
  } catch (err) {
    const s = statusOf(err);
    if (s !== 404 && s !== 409) throw err;
  }
}

/** The engine's answer, or undefined when it says the object does not exist (404); other failures throw. */
export async function unless404<T>(op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op();
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw err;
  }
}

export function labelsOf(plan: LaunchPlan): Record<string, string> {
  return { [LABEL_SWARM]: plan.spec.swarm, [LABEL_AGENT]: plan.spec.agent, [LABEL_SESSION]: plan.sessionId };
}

/** The env secret: one KEY=VALUE per line (the launcher's format); the bytes exist only in the engine's raft store. */
export async function createEnvSecret(docker: DockerClient, plan: LaunchPlan, names: SwarmNames): Promise<string> {
  const body = Object.entries(plan.env)
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
  const res = (await docker.createSecret({
    Name: names.secret,
    Labels: labelsOf(plan),
    Data: Buffer.from(body, 'utf8').toString('base64'),
  })) as {
    id?: string;
    ID?: string;
  };
  return String(res.id ?? res.ID);
}

/** The constant launcher as a Docker config (not a secret: it is public bytes). */
export async function createLauncherConfig(docker: DockerClient, plan: LaunchPlan, names: SwarmNames): Promise<string> {
  const bytes = await fsp.readFile(LAUNCHER_PATH);
  const res = (await docker.createConfig({ Name: names.config, Labels: labelsOf(plan), Data: bytes.toString('base64') })) as {
    id?: string;
    ID?: string;
  };
  return String(res.id ?? res.ID);
}

/** An overlay network; `internal` = no route out of it. Returns its id. */
export async function createOverlay(
  docker: DockerClient,
  name: string,
  labels: Record<string, string>,
  internal: boolean,
): Promise<string> {
  const net = await docker.createNetwork({
    Name: name,
    Driver: 'overlay',
    Internal: internal,
    Attachable: false,
    Labels: labels,
    CheckDuplicate: true,
  });
  return net.id;
}

/** A shared non-internal overlay (created once, labelled, never removed by an agent's stop); its id. */
export async function ensureSharedOverlay(docker: DockerClient, name: string): Promise<string> {
  const find = async (): Promise<string | undefined> =>
    (await docker.listNetworks({ filters: JSON.stringify({ name: [name] }) })).find((n) => n.Name === name)?.Id;
  const found = await find();
  if (found !== undefined) return found;
  try {
    return await createOverlay(docker, name, { [LABEL_SWARM]: `*${name}*` }, false);
  } catch (err) {
    if (statusOf(err) !== 409) throw err;
    const id = await find(); // created concurrently by another start
    if (id === undefined) throw err;
    return id;
  }
}

/**
 * The isolated agent's forwarder: the same image's socat, listening inside the agent's internal overlay and
 * connecting ONLY to the pinned endpoint (`connect` is the egress lib's validated address); on the egress overlay too.
 */
export async function createForwarderService(
  docker: DockerClient,
  plan: LaunchPlan,
  names: SwarmNames,
  opts: { image: string; connect: string; internalNet: string; egressNet: string; constraints: readonly string[]; user: string },
): Promise<string> {
  const labels = { ...labelsOf(plan), [LABEL_FORWARDER_OF]: names.service };
  return createServiceRaw(docker, {
    Name: names.forwarder,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: opts.image,
        Labels: labels,
        Command: ['socat', `TCP-LISTEN:${SWARM_FORWARDER_PORT},fork,reuseaddr`, opts.connect],
        Env: [],
        User: opts.user,
        ReadOnly: true,
        CapabilityDrop: ['ALL'],
      },
      RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
      Placement: { Constraints: [...opts.constraints] },
      Networks: [{ Target: opts.internalNet }, { Target: opts.egressNet }],
    },
    Mode: { Replicated: { Replicas: 1 } },
    EndpointSpec: { Mode: 'dnsrr' },
  });
}

/** `createService` with an Engine API body (dockerode's typings describe a narrower, callback-overloaded shape). */
export async function createServiceRaw(docker: DockerClient, body: Record<string, unknown>): Promise<string> {
  const create = docker.createService.bind(docker) as unknown as (opts: Record<string, unknown>) => Promise<{ id: string }>;
  return (await create(body)).id;
}

/** `listServices` / `listTasks` with a filters JSON (the promise form). */
export async function listRaw(
  docker: DockerClient,
  what: 'listServices' | 'listTasks',
  filters: Record<string, string[]>,
): Promise<unknown[]> {
  const list = docker[what].bind(docker) as unknown as (opts: { filters: string }) => Promise<unknown[]>;
  return list({ filters: JSON.stringify(filters) });
}

/** What a session created on the manager, for its removal (ids; undefined = not created). */
export interface SwarmObjects {
  serviceId?: string;
  forwarderId?: string;
  secretId?: string;
  configId?: string;
  networkId?: string;
}

/** Removes a session's objects: services first (they hold the secret, config and network), then the rest. */
export async function removeSwarmObjects(docker: DockerClient, o: SwarmObjects): Promise<void> {
  if (o.serviceId !== undefined) await tolerant(() => docker.getService(o.serviceId as string).remove());
  if (o.forwarderId !== undefined) await tolerant(() => docker.getService(o.forwarderId as string).remove());
  // A secret/config/network is refused (409/500) while a task still references it: retry a little while the tasks go.
  for (let i = 0; i < 40; i += 1) {
    const left: Promise<boolean>[] = [];
    if (o.secretId !== undefined) left.push(tryRemove(() => docker.getSecret(o.secretId as string).remove()));
    if (o.configId !== undefined) left.push(tryRemove(() => docker.getConfig(o.configId as string).remove()));
    if (o.networkId !== undefined) left.push(tryRemove(() => docker.getNetwork(o.networkId as string).remove()));
    const done = await Promise.all(left);
    if (done.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function tryRemove(op: () => Promise<unknown>): Promise<boolean> {
  try {
    await op();
    return true;
  } catch (err) {
    return statusOf(err) === 404;
  }
}
