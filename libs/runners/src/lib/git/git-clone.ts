import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { workspaceOwners } from '../identity/agent-identity';
import type { RunnerContext } from '../port';
import { gitAgentLayout, gitBaseDir, gitEmptyHome, gitSwarmDir } from './git-layout';
import { readGitRecord, writeGitRecord, type GitRecord } from './git-record';
import type { GitSourcePlan } from './git-source';
import { HOST_FETCH_FLAGS, runHostGit } from './host-git';
import { withGitLock } from './git-lock';

/** What `ensureGitClone` needs: the planned source, the workspace (real path, created, the server's), the agent's ids. */
export interface GitCloneInput {
  readonly home: string;
  readonly swarm: string;
  readonly agent: string;
  readonly source: GitSourcePlan;
  readonly workspace: string;
  readonly serverUid: number;
  readonly owner: { readonly uid: number; readonly gid: number };
}

/** Entries genswarms itself keeps in a workspace: a clone may be made next to them. */
const GENSWARMS_ENTRIES = new Set(['.genswarms', '.inbox', '.outbox']);

/**
 * Makes the agent's workspace a clone of the operator's repository at the planned commit, on the branch
 * `genswarms/<swarm>/<agent>`, once: a workspace that already holds `.git` is reused as it is (restart,
 * recovery) and nothing is run in it. The clone is made while the workspace is still the server's and the
 * agent runs nothing: `git init` there, the base repository's object files hardlinked in (they stay the
 * server's, mode 0444, so the agent can unlink its own names but never change a shared object; copied when
 * the agent is the server user or across file systems), the branch set and checked out, then every entry but
 * a shared object file handed to the agent by lchown. No alternates, no remote, nothing pointing back.
 */
export async function ensureGitClone(input: GitCloneInput): Promise<GitRecord> {
  const layout = gitAgentLayout(input.home, input.swarm, input.agent);
  const dotGit = path.join(input.workspace, '.git');
  if (await exists(dotGit)) {
    const record = await readGitRecord(layout.record);
    if (record.kind === 'ok') return record.record;
    throw new RunnerError('unsafe_workspace', 'the workspace holds a .git that genswarms did not make (no clone record)', {
      agent: input.agent,
    });
  }
  // a workspace already handed to the agent is never written by the host again: its clone is gone, not made anew
  if ((await fsp.lstat(input.workspace)).uid !== input.serverUid)
    throw new RunnerError('unsafe_workspace', "the agent's clone is gone (no .git); purge the swarm to start it afresh", {
      agent: input.agent,
    });
  const stray = (await fsp.readdir(input.workspace)).filter((n) => !GENSWARMS_ENTRIES.has(n));
  if (stray.length > 0)
    throw new RunnerError('unsafe_workspace', 'the workspace holds files but no clone; purge the swarm to start it afresh', {
      agent: input.agent,
    });
  await fsp.mkdir(gitSwarmDir(input.home, input.swarm), { recursive: true, mode: 0o700 });
  const base = gitBaseDir(input.home, input.swarm, input.source.repo);
  await withGitLock(base, () => fetchBase(input, base)); // agents of a swarm are prepared a few at once
  const emptyHome = gitEmptyHome(input.home);
  await runHostGit(['init', '-q', `--initial-branch=${layout.branch}`, '--', input.workspace], { emptyHome });
  const share = input.owner.uid !== input.serverUid;
  await linkObjects(path.join(base, 'objects'), path.join(dotGit, 'objects'), share);
  const inRepo = { gitDir: dotGit, emptyHome, env: { GIT_WORK_TREE: input.workspace } };
  await runHostGit(['update-ref', `refs/heads/${layout.branch}`, input.source.sha], inRepo);
  await runHostGit(['read-tree', '--reset', '-u', 'HEAD'], { ...inRepo, cwd: input.workspace });
  if (share) await handOver(input.workspace, path.join(dotGit, 'objects'), input.owner);
  const record: GitRecord = { version: 1, repo: input.source.repo, ref: input.source.ref, base: input.source.sha, branch: layout.branch };
  await writeGitRecord(layout.record, record);
  return record;
}

/** `ensureGitClone` for an agent of this context: its home, the server uid and the agent's identity. */
export function cloneGitWorkspace(
  ctx: RunnerContext,
  who: { readonly swarm: string; readonly agent: string },
  source: GitSourcePlan,
  workspace: string,
): Promise<GitRecord> {
  const owners = workspaceOwners(ctx);
  return ensureGitClone({ home: ctx.home, ...who, source, workspace, serverUid: owners.serverUid, owner: owners.agent });
}

async function fetchBase(input: GitCloneInput, base: string): Promise<void> {
  const emptyHome = gitEmptyHome(input.home);
  if (!(await exists(path.join(base, 'HEAD')))) await runHostGit(['init', '-q', '--bare', '--', base], { emptyHome });
  const has = await runHostGit(['cat-file', '-e', `${input.source.sha}^{commit}`], { gitDir: base, emptyHome, okCodes: [1, 128] });
  if (has.code === 0) return;
  await runHostGit(
    [...HOST_FETCH_FLAGS, '--', path.join(input.source.repo, '.git'), `+${input.source.sha}:refs/genswarms/base/${input.source.sha}`],
    { gitDir: base, emptyHome },
  );
}

/** Hardlinks (or copies) every object file of the base into the new clone; directories are made fresh. */
async function linkObjects(from: string, to: string, share: boolean): Promise<void> {
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    if (entry.name === 'info') continue;
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await fsp.mkdir(dst, { recursive: true, mode: 0o755 });
      await linkObjects(src, dst, share);
    } else if (entry.isFile()) {
      if (share)
        await fsp.link(src, dst).catch((e: NodeJS.ErrnoException) => (e.code === 'EXDEV' ? copyObject(src, dst) : Promise.reject(e)));
      else await copyObject(src, dst);
    }
  }
}

async function copyObject(src: string, dst: string): Promise<void> {
  await fsp.copyFile(src, dst);
  await fsp.chmod(dst, 0o444);
}

/**
 * lchown every entry of the fresh clone to the agent, except object files still shared with the base (more
 * than one link): those stay the server's. Runs before the agent's first start, so nothing moves meanwhile.
 */
async function handOver(dir: string, objects: string, owner: { uid: number; gid: number }): Promise<void> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isFile() && p.startsWith(objects + path.sep) && (await fsp.lstat(p)).nlink > 1) continue;
    await fsp.lchown(p, owner.uid, owner.gid);
    if (entry.isDirectory()) await handOver(p, objects, owner);
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.lstat(p);
    return true;
  } catch {
    // expected: a missing path is the answer
    return false;
  }
}
