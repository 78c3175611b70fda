import { lstatSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { isSameOrInsideNormalized } from '../sandbox/path-rules';
import { deepestRootOf, isReachedWithoutLinks } from '../workspace/named-workspace';
import { systemDirOf } from '../workspace/system-dirs';
import { realOrResolved, workspaceRootsOf } from '../workspace/workspace-roots';
import { runHostGit } from './host-git';
import { gitEmptyHome } from './git-layout';

/** Longest `ref` accepted (characters). */
export const GIT_REF_MAX_CHARS = 256;
/**
 * What a `ref` may hold: names, `~`/`^` suffixes, `@{…}`, `:` paths are refused. No shell syntax, no space,
 * no leading `-` (it would read as an option; the call also passes `--end-of-options`).
 */
const REF_RE = /^(?!-)[A-Za-z0-9._/~^{}@+-]+$/;

/** A git workspace as the operator wrote it (the config's `workspace: {git, ref}`). */
export interface GitWorkspaceSource {
  readonly git: string;
  readonly ref?: string;
}

/** The operator's repository resolved: its real path and the commit `ref` names there. */
export interface GitSourcePlan {
  readonly repo: string;
  readonly ref: string;
  readonly sha: string;
}

/**
 * Plans a git workspace's source (docs/security.md "Git workspaces"); reads only. The repository path follows
 * the named-workspace rules (`workspace_outside_roots` unless strictly below a root; `unsafe_workspace` for a
 * relative path, NUL/newline, a link below its root, GENSWARMS_HOME or a system directory); it must hold a
 * real `.git` directory (not a link, not a `.git` file pointing elsewhere) owned like it by the server user or
 * root, else `git_not_a_repository`. `ref` (default `HEAD`) must resolve to a commit there, else
 * `git_ref_unresolved`.
 */
export async function planGitSource(src: GitWorkspaceSource, agent: string, ctx: RunnerContext): Promise<GitSourcePlan> {
  const repo = confineRepository(src.git, agent, ctx);
  checkRepository(repo, src.git, agent, ctx);
  const ref = src.ref ?? 'HEAD';
  const unresolved = (why: string): RunnerError =>
    new RunnerError('git_ref_unresolved', `ref ${JSON.stringify(ref.slice(0, 80))} ${why}`, { agent, details: { ref: ref.slice(0, 80) } });
  if (ref.length > GIT_REF_MAX_CHARS || !REF_RE.test(ref) || ref.includes('..')) throw unresolved('is not a plain revision name');
  const r = await runHostGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    gitDir: path.join(repo, '.git'),
    emptyHome: gitEmptyHome(ctx.home),
    env: { GIT_CEILING_DIRECTORIES: path.dirname(repo) },
    okCodes: [1, 128],
  }).catch((e: unknown) => {
    throw new RunnerError('git_ref_unresolved', `ref ${JSON.stringify(ref)} could not be resolved`, { agent, cause: e });
  });
  const sha = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !/^[0-9a-f]{40}$/.test(sha)) throw unresolved('does not name a commit of the repository');
  return { repo, ref, sha };
}

function confineRepository(written: string, agent: string, ctx: RunnerContext): string {
  const refuse = (why: string): RunnerError =>
    new RunnerError('unsafe_workspace', `git repository ${JSON.stringify(written)} ${why}`, { agent, details: { path: written } });
  if (typeof written !== 'string' || !path.isAbsolute(written)) throw refuse('is not an absolute path');
  if (/[\0\n]/.test(written)) throw refuse('contains NUL or newline');
  const lexical = path.resolve(written);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (e) {
    throw new RunnerError('git_not_a_repository', `git repository ${JSON.stringify(written)} does not exist`, {
      agent,
      details: { path: written },
      cause: e,
    });
  }
  const roots = workspaceRootsOf(ctx);
  const root = deepestRootOf(real, roots);
  if (root === undefined) {
    throw new RunnerError(
      'workspace_outside_roots',
      `git repository ${JSON.stringify(written)} is outside the workspace roots (${roots.join(', ')}); name one below a root, or add a root with GENSWARMS_WORKSPACE_ROOTS`,
      { agent, details: { path: written, roots: [...roots] } },
    );
  }
  const home = realOrResolved(ctx.home);
  if (isSameOrInsideNormalized(real, home) || isSameOrInsideNormalized(home, real)) throw refuse('overlaps GENSWARMS_HOME');
  const system = systemDirOf(real, ctx.userHome === undefined ? undefined : realOrResolved(ctx.userHome));
  if (system !== undefined) throw refuse(`is or lies in the system directory ${system}`);
  const below = path.relative(root, real).split(path.sep);
  if (lexical !== real && !isReachedWithoutLinks(lexical, root, below))
    throw refuse(`is reached through a symbolic link below the root ${root}`);
  return real;
}

/** The repository and its `.git` are real directories of the server user or root (no gitfile, no link). */
function checkRepository(repo: string, written: string, agent: string, ctx: RunnerContext): void {
  const notRepo = (why: string): RunnerError =>
    new RunnerError('git_not_a_repository', `${JSON.stringify(written)} ${why}`, { agent, details: { path: written } });
  const owned = (uid: number): boolean => uid === ctx.serverUid || uid === 0;
  const top = lstatSync(repo);
  if (!top.isDirectory()) throw notRepo('is not a directory');
  if (!owned(top.uid)) throw notRepo('is owned by neither the server user nor root');
  let dotGit;
  try {
    dotGit = lstatSync(path.join(repo, '.git'));
  } catch {
    throw notRepo('is not a git repository (no .git directory)');
  }
  if (dotGit.isSymbolicLink()) throw notRepo('has a .git that is a symbolic link (refused: it could lead anywhere)');
  if (dotGit.isFile()) throw notRepo('has a .git file pointing elsewhere (a worktree or submodule; name the main repository)');
  if (!dotGit.isDirectory()) throw notRepo('has a .git that is not a directory');
  if (!owned(dotGit.uid)) throw notRepo('has a .git owned by neither the server user nor root');
  for (const part of ['HEAD', 'objects', 'refs']) {
    try {
      lstatSync(path.join(repo, '.git', part));
    } catch {
      throw notRepo(`is not a git repository (.git/${part} is missing)`);
    }
  }
}
