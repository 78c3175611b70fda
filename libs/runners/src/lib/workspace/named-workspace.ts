import { lstatSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { isSameOrInsideNormalized } from '../sandbox/path-rules';
import { workspaceOwners } from '../identity/agent-identity';
import { systemDirOf } from './system-dirs';
import { defaultWorkspaceRoot, isStrictlyInside, realOrResolved, workspaceRootsOf } from './workspace-roots';

/** Whose workspace: the refusals name the agent; the own default workspace is told apart by swarm and agent. */
export interface WorkspaceOwnerName {
  readonly swarm: string;
  readonly agent: string;
}

/**
 * Plans a workspace the operator named (docs/security.md "Workspace roots"); reads metadata only, creates
 * nothing. Returns the real path it has or will have. The agent's own default `<home>/workspaces/<swarm>/<agent>`
 * (or a directory inside it) is always allowed. Otherwise:
 * - `workspace_outside_roots` (details `roots`, `path` as written) unless the real path lies strictly below a root;
 * - `unsafe_workspace` when it is relative or holds NUL/newline, overlaps GENSWARMS_HOME, is or lies in a system
 *   directory, is reached through a symlink below its root, or when an existing part of it is not a real
 *   directory, an intermediate one is owned by neither the server user nor root, or the workspace itself by
 *   neither the server user nor the agent uid (only those are created or adopted, docs/runners.md).
 */
export function planNamedWorkspace(written: string, who: WorkspaceOwnerName, ctx: RunnerContext): string {
  const refuse = (why: string): RunnerError =>
    new RunnerError('unsafe_workspace', `workspace ${JSON.stringify(written)} ${why}`, { agent: who.agent, details: { path: written } });
  if (typeof written !== 'string' || !path.isAbsolute(written)) throw refuse('is not an absolute path');
  if (/[\0\n]/.test(written)) throw refuse('contains NUL or newline');
  const lexical = path.resolve(written);
  const real = realOfMaybeMissing(lexical);
  if (real === undefined) throw refuse('lies below something that is not a directory');
  const home = realOrResolved(ctx.home);
  // the own default, or a directory inside it: what mount safety allows inside GENSWARMS_HOME
  if (isSameOrInsideNormalized(real, path.join(defaultWorkspaceRoot(home), who.swarm, who.agent))) return real;
  const roots = workspaceRootsOf(ctx);
  const root = deepestRootOf(real, roots);
  if (root === undefined) {
    throw new RunnerError(
      'workspace_outside_roots',
      `workspace ${JSON.stringify(written)} is outside the workspace roots (${roots.join(', ')}); name a directory below one of them, or add a root with GENSWARMS_WORKSPACE_ROOTS`,
      { agent: who.agent, details: { path: written, roots: [...roots] } },
    );
  }
  if (isSameOrInsideNormalized(real, home) || isSameOrInsideNormalized(home, real))
    throw refuse("overlaps GENSWARMS_HOME (only the agent's own default workspace may)");
  const system = systemDirOf(real, ctx.userHome === undefined ? undefined : realOrResolved(ctx.userHome));
  if (system !== undefined) throw refuse(`is or lies in the system directory ${system}`);
  const below = path.relative(root, real).split(path.sep);
  if (lexical !== real && !isReachedWithoutLinks(lexical, root, below))
    throw refuse(`is reached through a symbolic link below the root ${root}`);
  const fault = existingPartsFault(root, below, ctx);
  if (fault !== undefined) throw refuse(fault);
  return real;
}

/** The deepest root `real` lies strictly below. */
export function deepestRootOf(real: string, roots: readonly string[]): string | undefined {
  return roots.filter((r) => isStrictlyInside(real, r)).sort((a, b) => b.length - a.length)[0];
}

/**
 * `lexical` ends with `below` and what precedes them resolves to `root`: the path as written may pass a link
 * above the root (e.g. `/srv` → `/data`), never one below it (the resolved path would name other entries).
 */
export function isReachedWithoutLinks(lexical: string, root: string, below: readonly string[]): boolean {
  const parts = lexical.split(path.sep);
  const tail = parts.slice(parts.length - below.length);
  if (tail.length !== below.length || tail.some((p, i) => p !== below[i])) return false;
  const prefix = parts.slice(0, parts.length - below.length).join(path.sep) || path.sep;
  try {
    return realpathSync(prefix) === root;
  } catch {
    return false; // expected: a prefix that does not resolve cannot be the root
  }
}

/** Why an existing directory on the way from `root` to the workspace may not be used; undefined when all may. */
function existingPartsFault(root: string, below: readonly string[], ctx: RunnerContext): string | undefined {
  const owners = workspaceOwners(ctx);
  let at = root;
  for (const [i, name] of below.entries()) {
    at = path.join(at, name);
    const st = lstatOrMissing(at);
    if (st === 'missing') return undefined; // the rest is created at start, below what was checked
    if (st === 'unreadable') return `lies below ${at}, which cannot be inspected`;
    if (st.isSymbolicLink() || !st.isDirectory()) return `has ${at} that is not a real directory`;
    const last = i === below.length - 1;
    if (!last && st.uid !== owners.serverUid && st.uid !== 0) return `lies below ${at}, owned by neither the server user nor root`;
    if (last && st.uid !== owners.serverUid && st.uid !== owners.agent.uid) return 'is owned by neither the server user nor the agent uid';
  }
  return undefined;
}

/** The real path the workspace has, or will have once created: the deepest existing ancestor resolved. */
function realOfMaybeMissing(p: string): string | undefined {
  const missing: string[] = [];
  for (let at = p; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...missing.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || path.dirname(at) === at) return undefined;
      missing.push(path.basename(at));
    }
  }
}

function lstatOrMissing(p: string): Stats | 'missing' | 'unreadable' {
  try {
    return lstatSync(p);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
}
