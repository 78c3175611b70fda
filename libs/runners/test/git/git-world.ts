import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ensureGitClone, planGitSource, type GitRecord } from '../../src/index';
import { makeContext, makeSandboxDirs } from '../support';

/** The agent uid the specs run the agent's own git as (a root test process drops to it). */
export const AGENT_UID = 65532;
export const SWARM = 's1';
export const AGENT = 'a1';

/** A plain git run as the test (the operator), in `cwd`, with a fixed identity and no global config. */
export function git(cwd: string, args: readonly string[], input?: string): string {
  const r = spawnSync('/usr/bin/git', [...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'op',
      GIT_AUTHOR_EMAIL: 'op@example.com',
      GIT_COMMITTER_NAME: 'op',
      GIT_COMMITTER_EMAIL: 'op@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs argv as the agent uid (setpriv), in `cwd`: what a hostile agent does in its clone. */
export function asAgent(cwd: string, argv: readonly string[]): string {
  const r = spawnSync('/usr/bin/setpriv', [`--reuid=${AGENT_UID}`, `--regid=${AGENT_UID}`, '--clear-groups', '--', ...argv], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'agent',
      GIT_AUTHOR_EMAIL: 'agent@example.com',
      GIT_COMMITTER_NAME: 'agent',
      GIT_COMMITTER_EMAIL: 'agent@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} as agent: ${r.stderr}`);
  return r.stdout;
}

/** The operator's repository (`<root>/ops/repo`, two commits) and the agent's planned workspace. */
export function makeGitWorld() {
  const dirs = makeSandboxDirs('gs-git-');
  const repo = path.join(dirs.root, 'ops', 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, ['init', '-q', '--initial-branch=main']);
  writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  writeFileSync(path.join(repo, 'lib.txt'), 'one\ntwo\n');
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', 'first']);
  const ctx = makeContext(dirs.home, { agentUid: AGENT_UID, agentGid: AGENT_UID });
  const workspace = path.join(dirs.home, 'workspaces', SWARM, AGENT);
  return { ...dirs, repo, ctx, workspace };
}

export type GitWorld = ReturnType<typeof makeGitWorld>;

/** Plans and clones like a start does: the workspace made (0700, the server's), then the clone. */
export async function cloneFor(w: GitWorld, agent = AGENT, ref?: string): Promise<GitRecord> {
  const source = await planGitSource({ git: w.repo, ...(ref === undefined ? {} : { ref }) }, agent, w.ctx);
  const workspace = path.join(w.home, 'workspaces', SWARM, agent);
  mkdirSync(workspace, { recursive: true, mode: 0o700 });
  const record = await ensureGitClone({
    home: w.home,
    swarm: SWARM,
    agent,
    source,
    workspace,
    serverUid: 0,
    owner: { uid: AGENT_UID, gid: AGENT_UID },
  });
  // the runner's start hands the directory itself over, and opens the way to it
  spawnSync('/usr/bin/chown', [`${AGENT_UID}:${AGENT_UID}`, workspace]);
  for (const d of [w.home, path.join(w.home, 'workspaces'), path.join(w.home, 'workspaces', SWARM)]) chmodSync(d, 0o711);
  return record;
}

/** Everything of the operator's repository that must not change but for the new branch. */
export function operatorFingerprint(repo: string): Record<string, string> {
  const g = path.join(repo, '.git');
  return {
    head: readFileSync(path.join(g, 'HEAD'), 'utf8'),
    config: readFileSync(path.join(g, 'config'), 'utf8'),
    index: readFileSync(path.join(g, 'index')).toString('hex'),
    hooks: readdirSync(path.join(g, 'hooks')).sort().join(','),
    status: git(repo, ['status', '--porcelain', '--untracked-files=all']),
    fetchHead: String(safeStat(path.join(g, 'FETCH_HEAD'))),
  };
}

function safeStat(p: string): number | undefined {
  try {
    return statSync(p).size;
  } catch {
    return undefined;
  }
}
