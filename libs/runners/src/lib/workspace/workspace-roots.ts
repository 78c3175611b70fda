import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { isSameOrInsideNormalized } from '../sandbox/path-rules';
import { systemDirOf } from './system-dirs';

/** Most directories GENSWARMS_WORKSPACE_ROOTS may list (each is checked on every named workspace's plan). */
export const WORKSPACE_ROOTS_MAX = 64;

/** What the app read: the variable's raw text (undefined or blank = the default), the real home, `HOME`. */
export interface WorkspaceRootsInput {
  readonly raw: string | undefined;
  /** Real path of GENSWARMS_HOME (already created). */
  readonly home: string;
  /** The server user's home directory (`HOME`): never a root itself. */
  readonly userHome?: string;
}

export type WorkspaceRootsResolution = { kind: 'ok'; roots: readonly string[] } | { kind: 'invalid'; reason: string };

/** `<home>/workspaces`: the default root, and where default workspaces always live. */
export function defaultWorkspaceRoot(home: string): string {
  return path.join(home, 'workspaces');
}

/**
 * GENSWARMS_WORKSPACE_ROOTS → the real paths a named workspace may lie below (docs/security.md "Workspace
 * roots"), fixed at boot. Unset or blank → `[<home>/workspaces]`. Refused: an empty entry, a relative path or
 * NUL, a path that does not exist or is not a directory, a system directory (`systemDirOf`) or the server
 * user's home, GENSWARMS_HOME or a path inside it other than `<home>/workspaces` (which may be missing; it is
 * created with the first default workspace). `reason` names the entry as written.
 */
export function resolveWorkspaceRoots(input: WorkspaceRootsInput): WorkspaceRootsResolution {
  const fallback = defaultWorkspaceRoot(input.home);
  if (input.raw === undefined || input.raw.trim() === '') return { kind: 'ok', roots: [fallback] };
  const entries = input.raw.split(',').map((e) => e.trim());
  if (entries.length > WORKSPACE_ROOTS_MAX) return { kind: 'invalid', reason: `more than ${WORKSPACE_ROOTS_MAX} directories` };
  const userHome = input.userHome === undefined ? undefined : realOrResolved(input.userHome);
  const roots: string[] = [];
  for (const entry of entries) {
    const root = resolveRoot(entry, input.home, userHome);
    if (root.kind === 'invalid') return root;
    if (!roots.includes(root.real)) roots.push(root.real);
  }
  return { kind: 'ok', roots };
}

type RootResolution = { kind: 'ok'; real: string } | { kind: 'invalid'; reason: string };

function resolveRoot(entry: string, home: string, userHome: string | undefined): RootResolution {
  const bad = (why: string): RootResolution => ({ kind: 'invalid', reason: `${JSON.stringify(entry)} ${why}` });
  if (entry === '') return { kind: 'invalid', reason: 'an entry is empty (a comma-separated list of absolute directories)' };
  if (entry.includes('\0')) return bad('contains NUL');
  if (!path.isAbsolute(entry)) return bad('is not an absolute path');
  const fallback = defaultWorkspaceRoot(home);
  let real: string;
  try {
    real = realpathSync(entry);
  } catch {
    // expected: a missing root is refused below, except the default one (made with the first default workspace)
    if (path.resolve(entry) === fallback) return { kind: 'ok', real: fallback };
    return bad('does not exist');
  }
  if (!statSync(real).isDirectory()) return bad('is not a directory');
  if (real === fallback) return { kind: 'ok', real };
  if (isSameOrInsideNormalized(real, home)) return bad(`is GENSWARMS_HOME or inside it (only ${fallback} may be a root there)`);
  const system = systemDirOf(real, userHome);
  if (system !== undefined) {
    return bad(system === real ? "is a system directory or the server user's home" : `lies in the system directory ${system}`);
  }
  return { kind: 'ok', real };
}

/** The context's workspace roots: GENSWARMS_WORKSPACE_ROOTS as the app resolved it, else `[<home>/workspaces]`. */
export function workspaceRootsOf(ctx: Pick<RunnerContext, 'home' | 'workspaceRoots'>): readonly string[] {
  return ctx.workspaceRoots ?? [defaultWorkspaceRoot(ctx.home)];
}

/**
 * Where a workspace walk may start (`ensureWorkspaceDir`): every root, and GENSWARMS_HOME itself for the
 * default workspaces (`<home>/workspaces/<swarm>/<agent>`, whatever the roots say).
 */
export function workspaceWalkRoots(ctx: Pick<RunnerContext, 'home' | 'workspaceRoots'>): readonly string[] {
  return [...workspaceRootsOf(ctx), ctx.home];
}

/** `a` lies strictly below `b` (absolute normalized paths): a root is never a workspace itself. */
export function isStrictlyInside(a: string, b: string): boolean {
  return a !== b && isSameOrInsideNormalized(a, b);
}

/** The real path when it resolves, else the lexical absolute path. */
export function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // expected: an unresolvable path is compared as written
    return path.resolve(p);
  }
}
