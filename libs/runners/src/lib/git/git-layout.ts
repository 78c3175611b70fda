import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Where the host keeps what it needs for git workspaces, all below `<home>/git` (0700, the server's; no agent
 * path leads there and no sandbox mounts it):
 * - `.home`: the empty HOME of every host git call;
 * - `<swarm>/base-<hash>.git`: the objects of the operator's repository at the agents' refs (bare; every
 *   agent clone of that repository hardlinks its object files, which stay the server's and read-only);
 * - `<swarm>/<agent>.mirror.git`: the agent's objects, verified and copied in, read with the host's config;
 * - `<swarm>/<agent>.json`: the record of the clone (repository, base commit, branch).
 */
export interface GitAgentLayout {
  readonly swarmDir: string;
  readonly mirror: string;
  readonly record: string;
  readonly index: string;
  readonly branch: string;
}

export function gitRootDir(home: string): string {
  return path.join(home, 'git');
}

/** The empty HOME of host git calls. */
export function gitEmptyHome(home: string): string {
  return path.join(gitRootDir(home), '.home');
}

/** The swarm's git directory (deleted whole by purge). */
export function gitSwarmDir(home: string, swarm: string): string {
  return path.join(gitRootDir(home), swarm);
}

/**
 * Whether the agent has a clone record (`<swarm>/<agent>.json` exists, whatever it holds): false means no git
 * workspace. One synchronous lstat of a path below the server's own `<home>/git` (no agent path leads there): the
 * engine asks after every turn of every agent, and most agents have no clone.
 */
export function hasGitRecord(home: string, swarm: string, agent: string): boolean {
  return lstatSync(gitAgentLayout(home, swarm, agent).record, { throwIfNoEntry: false }) !== undefined;
}

/** The base repository of one operator repository (keyed by its real path). */
export function gitBaseDir(home: string, swarm: string, repoReal: string): string {
  const key = createHash('sha256').update(repoReal).digest('hex').slice(0, 16);
  return path.join(gitSwarmDir(home, swarm), `base-${key}.git`);
}

/** The branch an agent works on, in its clone and in the operator's repository when its work is taken. */
export function agentBranchName(swarm: string, agent: string): string {
  return `genswarms/${swarm}/${agent}`;
}

export function gitAgentLayout(home: string, swarm: string, agent: string): GitAgentLayout {
  const swarmDir = gitSwarmDir(home, swarm);
  return {
    swarmDir,
    mirror: path.join(swarmDir, `${agent}.mirror.git`),
    record: path.join(swarmDir, `${agent}.json`),
    index: path.join(swarmDir, `${agent}.index`),
    branch: agentBranchName(swarm, agent),
  };
}
