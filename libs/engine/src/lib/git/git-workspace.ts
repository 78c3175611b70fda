/** The narrow hooks of git workspaces into planning and preparing an agent (docs/configuration.md "Git workspaces"). */
import { viewBackend, type AgentConfig } from '@genswarms/ir-gate';
import { cloneGitWorkspace, planGitSource, type GitSourcePlan, type LaunchPlan, type RunnerContext } from '@genswarms/runners';
import { toEngineError } from '../agents/launch-spec';
import { EngineError } from '../errors/engine-error';

/** Backends whose workspace is a directory of this host (a clone made here is the one the agent works on). */
const HOST_WORKSPACE_BACKENDS: ReadonlySet<string> = new Set(['local', 'bwrap', 'docker', 'tmux', 'mock']);

/** The source each plan of a git workspace was made with, for its preparation (plans are never copied). */
const sources = new WeakMap<LaunchPlan, GitSourcePlan>();

/**
 * Checks a git workspace's source at plan time (validate, start, add_agent, scale, restart): the repository is
 * confined like a named workspace and the ref resolves. Undefined for any other workspace. Creates nothing.
 */
export async function planGitWorkspace(agent: AgentConfig, ctx: RunnerContext): Promise<GitSourcePlan | undefined> {
  const w = agent.workspace;
  if (w === undefined || typeof w === 'string') return undefined;
  const backend = viewBackend(agent.backend).type;
  if (!HOST_WORKSPACE_BACKENDS.has(backend)) {
    throw new EngineError('validation_failed', `A git workspace needs a backend whose workspace is on this host, not ${backend}.`, {
      agent: agent.name,
      issues: [{ path: 'workspace', message: `not available with backend ${backend} (local, bwrap, docker, tmux or mock)` }],
    });
  }
  try {
    return await planGitSource(w, agent.name, ctx);
  } catch (e) {
    throw toEngineError(e, agent.name);
  }
}

/** Remembers the source a plan was made with. */
export function rememberGitSource(plan: LaunchPlan, source: GitSourcePlan | undefined): void {
  if (source !== undefined) sources.set(plan, source);
}

/**
 * Makes the clone of a planned git workspace once its directory exists (a workspace that already holds the
 * clone is reused untouched: stop keeps it, restart and recovery reuse it, purge deletes it).
 */
export async function prepareGitWorkspace(plan: LaunchPlan, ctx: RunnerContext): Promise<void> {
  const source = sources.get(plan);
  if (source === undefined) return;
  try {
    await cloneGitWorkspace(ctx, { swarm: plan.spec.swarm, agent: plan.spec.agent }, source, plan.spec.workspace);
  } catch (e) {
    throw toEngineError(e, plan.spec.agent);
  }
}
