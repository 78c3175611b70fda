import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { importAgentObjects, readAgentBranch } from './agent-objects';
import { gitAgentLayout, gitBaseDir, gitEmptyHome } from './git-layout';
import { readGitRecord, type GitRecord } from './git-record';
import { runHostGit } from './host-git';
import { withGitLock } from './git-lock';
import { openDirIn, openDirPath } from './untrusted-tree';
import { snapshotWorktree, type SnapshotCache } from './worktree-snapshot';

/** Where an agent's work is (the host's mirror now holds every object these ids name). */
export interface AgentWork {
  readonly record: GitRecord;
  readonly mirror: string;
  readonly emptyHome: string;
  /** The clone's starting commit. */
  readonly base: string;
  /** The agent's branch (its commits); `base` when it has none or the branch is gone. */
  readonly branchHead: string;
  /** A host-made commit on `branchHead` holding the working tree; undefined when nothing is uncommitted. */
  readonly snapshot: string | undefined;
  /** Objects or files left out (unreadable, oversize, links to nowhere). */
  readonly skipped: number;
  readonly truncated: boolean;
}

export interface AgentWorkInput {
  readonly home: string;
  readonly swarm: string;
  readonly agent: string;
  /** Real path of the agent's workspace (its clone). */
  readonly workspace: string;
}

/**
 * Each mirror's snapshot cache (`SnapshotCache`: blob ids of working-tree files by path and stamp), so a read after
 * a turn re-reads only what changed. Process-wide like the mirrors; the least recently used go past this many.
 */
const SNAPSHOT_CACHES_MAX = 64;
const snapshotCaches = new Map<string, SnapshotCache>();

function cacheOf(mirror: string): SnapshotCache {
  const cache = snapshotCaches.get(mirror) ?? new Map();
  snapshotCaches.delete(mirror);
  snapshotCaches.set(mirror, cache);
  for (const oldest of snapshotCaches.keys()) {
    if (snapshotCaches.size <= SNAPSHOT_CACHES_MAX) break;
    snapshotCaches.delete(oldest);
  }
  return cache;
}

/** Fixed identity of the host's snapshot commits (no config, no agent-chosen name). */
const SNAPSHOT_ENV = {
  GIT_AUTHOR_NAME: 'genswarms',
  GIT_AUTHOR_EMAIL: 'genswarms@localhost',
  GIT_COMMITTER_NAME: 'genswarms',
  GIT_COMMITTER_EMAIL: 'genswarms@localhost',
};

/**
 * Reads an agent's work into the host's mirror (docs/security.md "Git workspaces"): its objects (verified,
 * `importAgentObjects`), its branch (a file read), its working tree (`snapshotWorktree`). No git runs in
 * the clone. `git_failed` when the branch names a commit whose objects are missing.
 * Undefined when the agent has no git workspace (no clone record).
 */
export async function readAgentWork(input: AgentWorkInput): Promise<AgentWork | undefined> {
  const layout = gitAgentLayout(input.home, input.swarm, input.agent);
  return withGitLock(layout.mirror, () => readLocked(input, layout));
}

async function readLocked(input: AgentWorkInput, layout: ReturnType<typeof gitAgentLayout>): Promise<AgentWork | undefined> {
  const read = await readGitRecord(layout.record);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'invalid') throw new RunnerError('git_failed', `the clone record is invalid (${read.reason})`, { agent: input.agent });
  const record = read.record;
  const emptyHome = gitEmptyHome(input.home);
  await ensureMirror(layout.mirror, gitBaseDir(input.home, input.swarm, record.repo), emptyHome);
  const ws = await openDirPath(input.workspace);
  try {
    const gitDir = await openDirIn(ws, '.git');
    let branchHead = record.base;
    let skipped = 0;
    const owner = (await ws.stat()).uid; // the agent's (the runner handed the workspace over): only its files are taken
    if (gitDir !== undefined) {
      try {
        skipped += (await importAgentObjects(gitDir, { mirror: layout.mirror, emptyHome, owner })).skipped;
        branchHead = (await readAgentBranch(gitDir, record.branch)) ?? record.base;
      } finally {
        await gitDir.close();
      }
    }
    const git = { gitDir: layout.mirror, emptyHome };
    const has = await runHostGit(['cat-file', '-e', `${branchHead}^{commit}`], { ...git, okCodes: [1, 128] });
    if (has.code !== 0)
      throw new RunnerError('git_failed', "the agent's branch names a commit that could not be read", { agent: input.agent });
    await runHostGit(['update-ref', 'refs/genswarms/head', branchHead], git);
    const cache = cacheOf(layout.mirror);
    const snap = await snapshotWorktree({
      workspace: ws,
      owner,
      mirror: layout.mirror,
      head: branchHead,
      cache,
      indexFile: layout.index,
      emptyHome,
    });
    const headCommit = parseCommitHeader((await runHostGit(['cat-file', 'commit', branchHead], git)).stdout.toString('latin1'));
    let snapshot: string | undefined;
    if (snap.tree !== headCommit.tree) {
      const msg = `genswarms: uncommitted changes of ${input.agent}\n`;
      // Dated as its parent: the same work read twice is the same commit (a clock date made a new id each second).
      const date = `${headCommit.committedAt} +0000`;
      const env = { ...SNAPSHOT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      const c = await runHostGit(['commit-tree', snap.tree, '-p', branchHead], { ...git, input: msg, env });
      snapshot = c.stdout.toString('latin1').trim();
      await runHostGit(['update-ref', 'refs/genswarms/snapshot', snapshot], git);
    }
    return {
      record,
      mirror: layout.mirror,
      emptyHome,
      base: record.base,
      branchHead,
      snapshot,
      skipped: skipped + snap.skipped,
      truncated: snap.truncated,
    };
  } finally {
    await ws.close();
  }
}

/** The host's bare mirror of an agent, borrowing the base's objects (both the server's). */
async function ensureMirror(mirror: string, base: string, emptyHome: string): Promise<void> {
  try {
    await fsp.lstat(path.join(mirror, 'HEAD'));
    return;
  } catch {
    // expected: first read of this agent's work
  }
  snapshotCaches.delete(mirror); // a new mirror holds none of the blobs a cache names
  await runHostGit(['init', '-q', '--bare', '--', mirror], { emptyHome });
  await fsp.writeFile(path.join(mirror, 'objects', 'info', 'alternates'), `${path.join(base, 'objects')}\n`, { mode: 0o600 });
}

/** The tree and committer time (epoch seconds) of a raw commit object; `git_failed` when either is missing. */
function parseCommitHeader(raw: string): { tree: string; committedAt: string } {
  const head = raw.slice(0, Math.max(0, raw.indexOf('\n\n'))).split('\n');
  const tree = /^tree ([0-9a-f]{40,64})$/.exec(head[0] ?? '')?.[1];
  const committer = head.find((l) => l.startsWith('committer '));
  const committedAt = committer === undefined ? undefined : / (\d{1,12}) [+-]\d{4}$/.exec(committer)?.[1];
  if (tree === undefined || committedAt === undefined)
    throw new RunnerError('git_failed', "the agent's branch head is not a readable commit");
  return { tree, committedAt };
}
