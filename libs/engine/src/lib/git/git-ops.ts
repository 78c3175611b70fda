/**
 * Reviewing and taking an agent's git work (docs/rest-api.md "Git workspaces"): the agent's clone is read by
 * the runners' pure reader into a mirror of the host's; nothing of the clone runs on the host.
 */
import {
  agentDiff,
  gitSwarmDir,
  hasGitRecord,
  isRunnerError,
  listAgentChanges,
  readAgentWork,
  takeAgentWork,
  type AgentChanges,
  type AgentWork,
  type TakenWork,
} from '@genswarms/runners';
import { isName } from '@genswarms/ir-gate';
import * as fsp from 'node:fs/promises';
import { defaultWorkspace } from '../agents/launch-spec';
import { EngineError } from '../errors/engine-error';
import { GIT_FETCH_AGENTS_MAX } from './git-schemas';

export interface GitOpsPaths {
  readonly home: string;
}

/** The agent's work, or undefined when it has no git workspace (no workspace or no clone record). */
export async function agentGitWork(paths: GitOpsPaths, swarm: string, agent: string): Promise<AgentWork | undefined> {
  // no record, no clone: answered before the workspace's realpath and the git lock (asked after every turn)
  if (!hasGitRecord(paths.home, swarm, agent)) return undefined;
  let workspace: string;
  try {
    workspace = await fsp.realpath(defaultWorkspace(paths.home, swarm, agent));
  } catch {
    return undefined; // expected: no workspace at all (never started, or purged)
  }
  return readAgentWork({ home: paths.home, swarm, agent, workspace });
}

async function workOf(paths: GitOpsPaths, swarm: string, agent: string): Promise<AgentWork> {
  const noClone = (): EngineError =>
    new EngineError('no_git_workspace', `Agent ${agent} of swarm ${swarm} has no git workspace.`, { swarm, agent });
  let workspace: string;
  try {
    workspace = await fsp.realpath(defaultWorkspace(paths.home, swarm, agent));
  } catch {
    throw noClone(); // expected: no workspace at all (never started, or purged)
  }
  try {
    const work = await readAgentWork({ home: paths.home, swarm, agent, workspace });
    if (work === undefined) throw noClone();
    return work;
  } catch (e) {
    throw asGitError(e, agent);
  }
}

function asGitError(e: unknown, agent: string): unknown {
  if (e instanceof EngineError) return e;
  if (isRunnerError(e)) return new EngineError('git_failed', e.message, { agent }, { cause: e });
  return new EngineError('git_failed', "The agent's git work could not be read.", { agent }, { cause: e });
}

/** `GET …/agents/:a/changes`: files changed from the clone's start (committed and not) and the branch's commits. */
export async function agentGitChanges(paths: GitOpsPaths, swarm: string, agent: string): Promise<AgentChanges> {
  const work = await workOf(paths, swarm, agent);
  return listAgentChanges(work).catch((e: unknown) => Promise.reject(asGitError(e, agent)));
}

/** `GET …/agents/:a/diff`: the unified diff (or `stat`) of the same, bounded. */
export async function agentGitDiff(
  paths: GitOpsPaths,
  swarm: string,
  agent: string,
  opts: { stat?: boolean },
): Promise<{ base: string; head: string; diff: string; truncated: boolean }> {
  const work = await workOf(paths, swarm, agent);
  const d = await agentDiff(work, opts).catch((e: unknown) => Promise.reject(asGitError(e, agent)));
  return { base: work.base, head: work.snapshot ?? work.branchHead, diff: d.text, truncated: d.truncated };
}

/**
 * `POST …/git/fetch`: each named agent's work (all with a git workspace when none is named) onto the branch
 * `genswarms/<swarm>/<agent>` of the operator's repository; one agent's failure is reported, the others go on.
 */
export async function fetchAgentsGitWork(
  paths: GitOpsPaths,
  swarm: string,
  opts: { agents?: readonly string[]; includeUncommitted?: boolean },
): Promise<{ fetched: (TakenWork & { agent: string })[]; failed: { agent: string; error: string; message: string }[] }> {
  const agents = opts.agents !== undefined && opts.agents.length > 0 ? [...new Set(opts.agents)] : await agentsWithClones(paths, swarm);
  if (agents.length === 0) throw new EngineError('no_git_workspace', `Swarm ${swarm} has no agent with a git workspace.`, { swarm });
  const fetched: (TakenWork & { agent: string })[] = [];
  const failed: { agent: string; error: string; message: string }[] = [];
  for (const agent of agents) {
    try {
      const work = await workOf(paths, swarm, agent);
      const taken = await takeAgentWork(work, { includeUncommitted: opts.includeUncommitted === true }).catch((e: unknown) =>
        Promise.reject(asGitError(e, agent)),
      );
      fetched.push({ agent, ...taken });
    } catch (e) {
      const err = e instanceof EngineError ? e : new EngineError('git_failed', 'The fetch failed.', { agent });
      failed.push({ agent, error: err.code, message: err.message });
    }
  }
  return { fetched, failed };
}

/** Agents of the swarm with a clone record (`<home>/git/<swarm>/<agent>.json`). */
async function agentsWithClones(paths: GitOpsPaths, swarm: string): Promise<string[]> {
  const names = await fsp.readdir(gitSwarmDir(paths.home, swarm)).catch(() => [] as string[]); // expected: no git dir → none
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length))
    .filter(isName)
    .sort()
    .slice(0, GIT_FETCH_AGENTS_MAX);
}
