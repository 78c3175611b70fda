import * as path from 'node:path';
import type { AgentWork } from './agent-work';
import { HOST_FETCH_FLAGS, runHostGit } from './host-git';
import { withGitLock } from './git-lock';

export interface TakenWork {
  readonly branch: string;
  /** The commit the operator's branch now names. */
  readonly commit: string;
  readonly uncommitted: boolean;
}

/**
 * Creates or moves the branch `genswarms/<swarm>/<agent>` of the operator's repository to the agent's work:
 * its branch head, or with `includeUncommitted` the host's snapshot commit of its working tree. The objects come
 * from the host's mirror (upload-pack runs there, in the server's repository); in the operator's repository
 * only objects and that one ref change: no FETCH_HEAD, no hooks, no auto gc, no checkout, and a branch checked
 * out there is refused by git itself (no `--update-head-ok`).
 */
export function takeAgentWork(work: AgentWork, opts: { includeUncommitted: boolean }): Promise<TakenWork> {
  return withGitLock(work.mirror, () => take(work, opts));
}

async function take(work: AgentWork, opts: { includeUncommitted: boolean }): Promise<TakenWork> {
  const commit = opts.includeUncommitted && work.snapshot !== undefined ? work.snapshot : work.branchHead;
  const git = { gitDir: work.mirror, emptyHome: work.emptyHome };
  await runHostGit(['update-ref', 'refs/genswarms/take', commit], git);
  await runHostGit(
    [
      ...HOST_FETCH_FLAGS,
      '--no-write-commit-graph',
      '--no-prune',
      '--',
      work.mirror,
      `+refs/genswarms/take:refs/heads/${work.record.branch}`,
    ],
    { gitDir: path.join(work.record.repo, '.git'), emptyHome: work.emptyHome },
  );
  return { branch: work.record.branch, commit, uncommitted: commit === work.snapshot };
}
