/**
 * The one task of an agent's service, as the manager reports it: where it runs (node, container) and whether it
 * ended. A different task id or node than the one recorded means Swarm rescheduled the agent.
 */
import type DockerClient from 'dockerode';
import { RunnerError } from '../errors/runner-error';
import { listRaw } from './swarm-objects';

/** Task states after which the task never runs again (Engine API TaskState). */
const TERMINAL = new Set(['complete', 'shutdown', 'failed', 'rejected', 'orphaned', 'remove']);

export interface TaskView {
  readonly taskId: string;
  readonly nodeId: string;
  readonly containerId: string | undefined;
  readonly state: string;
  readonly desired: string;
  readonly exitCode: number | undefined;
  /** The engine's error text for a failed/rejected task (no secrets: it names images, mounts, nodes). */
  readonly error: string | undefined;
  readonly terminal: boolean;
  readonly createdAt: string;
}

interface RawTask {
  ID?: string;
  NodeID?: string;
  CreatedAt?: string;
  DesiredState?: string;
  Status?: { State?: string; Err?: string; ContainerStatus?: { ContainerID?: string; ExitCode?: number } };
}

function view(t: RawTask): TaskView {
  const state = t.Status?.State ?? 'unknown';
  return {
    taskId: t.ID ?? '',
    nodeId: t.NodeID ?? '',
    containerId: t.Status?.ContainerStatus?.ContainerID || undefined,
    state,
    desired: t.DesiredState ?? '',
    exitCode: t.Status?.ContainerStatus?.ExitCode,
    error: t.Status?.Err,
    terminal: TERMINAL.has(state),
    createdAt: t.CreatedAt ?? '',
  };
}

/** Every task of `serviceId`, newest first. */
export async function tasksOf(docker: DockerClient, serviceId: string): Promise<TaskView[]> {
  const raw = (await listRaw(docker, 'listTasks', { service: [serviceId] })) as RawTask[];
  return raw.map(view).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Polls until the service's task runs (→ its view) or ends first (→ `start_failed` with the engine's reason). */
export async function waitForRunningTask(
  docker: DockerClient,
  serviceId: string,
  opts: { agent: string; timeoutMs: number; pollMs: number },
): Promise<TaskView & { containerId: string }> {
  const deadline = Date.now() + opts.timeoutMs;
  let last: TaskView | undefined;
  while (Date.now() < deadline) {
    const [task] = await tasksOf(docker, serviceId);
    last = task;
    if (task !== undefined && task.state === 'running' && task.containerId !== undefined && task.nodeId !== '') {
      return { ...task, containerId: task.containerId };
    }
    if (task?.terminal === true) {
      throw new RunnerError('start_failed', `the swarm task ended before it ran (${task.state}: ${task.error ?? 'no reason'})`, {
        agent: opts.agent,
        details: { state: task.state },
      });
    }
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
  throw new RunnerError('start_failed', `the swarm task did not run within ${opts.timeoutMs} ms (last state ${last?.state ?? 'none'})`, {
    agent: opts.agent,
  });
}
