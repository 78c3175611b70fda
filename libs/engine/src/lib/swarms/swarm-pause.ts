/**
 * docs/rest-api.md pause/resume: docker-backed agents (docker, tmux+docker) are paused/unpaused through the
 * docker runner of the registry (never dockerode here); every other agent is untouched and listed in
 * `skipped`. A swarm without docker-backed agents never touches the runner.
 */
import type { AgentLaunchSpec, Runner } from '@genswarms/runners';
import { EngineError } from '../errors/engine-error';
import type { Ports } from './engine-context';

/** What the docker runner (`createDockerRunner`) adds to the Runner port. */
export interface SwarmPauser {
  pauseSwarm(swarm: string): Promise<number>;
  resumeSwarm(swarm: string): Promise<number>;
}

export interface PauseResult {
  readonly status: 'paused' | 'resumed';
  readonly swarm_name: string;
  /** Containers paused (or resumed) by this call. */
  readonly containers: number;
  /** Agents that are not docker-backed, untouched. */
  readonly skipped: string[];
}

export function isDockerBacked(spec: AgentLaunchSpec): boolean {
  return spec.backend === 'docker' || (spec.backend === 'tmux' && spec.runner === 'docker');
}

function isSwarmPauser(runner: Runner): runner is Runner & SwarmPauser {
  const r = runner as Partial<SwarmPauser>;
  return typeof r.pauseSwarm === 'function' && typeof r.resumeSwarm === 'function';
}

async function runnerFailure(ctx: Ports<'events'>, swarm: string, action: string, reason: string, cause?: unknown): Promise<EngineError> {
  await ctx.events.emit({
    type: 'runner_error',
    swarm,
    agent: null,
    message: `Could not ${action} the swarm's containers.`,
    metadata: { action, reason },
  });
  return new EngineError(
    'runner_error',
    `The docker runner could not ${action} the swarm.`,
    { reason },
    cause === undefined ? undefined : { cause },
  );
}

/** Pauses (`paused: true`) or resumes every docker-backed agent of a running swarm. */
export async function setSwarmPaused(ctx: Ports<'events' | 'runtimes'>, swarm: string, paused: boolean): Promise<PauseResult> {
  const rt = ctx.runtimes.running(swarm);
  const sessions = rt.sessionList();
  const skipped = sessions.filter((s) => !isDockerBacked(s.spec)).map((s) => s.name);
  const status = paused ? 'paused' : 'resumed';
  if (skipped.length === sessions.length) return { status, swarm_name: swarm, containers: 0, skipped };
  const action = paused ? 'pause' : 'resume';
  if (!rt.runners.has('docker')) throw await runnerFailure(ctx, swarm, action, 'no_docker_runner');
  const runner = rt.runners.get('docker');
  if (!isSwarmPauser(runner)) throw await runnerFailure(ctx, swarm, action, 'pause_unsupported');
  let containers: number;
  try {
    containers = paused ? await runner.pauseSwarm(swarm) : await runner.resumeSwarm(swarm);
  } catch (err) {
    throw await runnerFailure(ctx, swarm, action, 'engine_failed', err);
  }
  return { status, swarm_name: swarm, containers, skipped };
}
