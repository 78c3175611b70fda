import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

/** Sandbox paths an extra bind may not take or cover (the boundary's own mounts). */
const RESERVED_SANDBOX_PATHS: readonly string[] = ['/workspace', '/root', '/skills', '/tmp', '/proc', '/dev', '/run/genswarms'];
/** `path.sep`, read once: a namespace import's property access is a getter call in the emitted code (hot loop). */
const SEP = path.sep;
/** Extra binds may not land on or below these. */
const FORBIDDEN_SANDBOX_ROOTS: readonly string[] = ['/proc', '/dev', '/run/genswarms'];

/**
 * `a` equals `b` or lies inside it (lexical, absolute paths). A first component named like `..x` is inside
 * (only `..` itself climbs out): `/b/..x` lies in `/b`.
 */
export function isSameOrInside(a: string, b: string): boolean {
  const rel = path.relative(b, a);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * `a` equals `b` or lies inside it, for paths already absolute and normalized (a `realpath`, a
 * `path.resolve`): string compares only, no `path.relative` (the hot loop of mount safety
 * runs it against every other agent's directories on each plan and start).
 */
export function isSameOrInsideNormalized(a: string, b: string): boolean {
  return a === b || a.startsWith(b === SEP ? b : `${b}${SEP}`);
}

/** `a` and `b` overlap, for absolute normalized paths (see isSameOrInsideNormalized). */
export function overlapsNormalized(a: string, b: string): boolean {
  return isSameOrInsideNormalized(a, b) || isSameOrInsideNormalized(b, a);
}

/** `a` and `b` overlap: equal, or one contains the other. */
export function overlaps(a: string, b: string): boolean {
  return isSameOrInside(a, b) || isSameOrInside(b, a);
}

/** An absolute, normalized sandbox path outside the reserved roots (docs/runners.md) → else `unsafe_bind`. */
export function assertSandboxPath(sandbox: string, agent: string): void {
  const bad = (why: string): RunnerError =>
    new RunnerError('unsafe_bind', `sandbox path ${JSON.stringify(sandbox)} ${why}`, { agent, details: { sandbox } });
  if (typeof sandbox !== 'string' || !path.posix.isAbsolute(sandbox)) throw bad('is not absolute');
  if (/[\0\n]/.test(sandbox)) throw bad('contains NUL or newline');
  if (path.posix.normalize(sandbox) !== sandbox || (sandbox.length > 1 && sandbox.endsWith('/'))) throw bad('is not normalized');
  if (sandbox === '/') throw bad('is the sandbox root');
  if (FORBIDDEN_SANDBOX_ROOTS.some((root) => isSameOrInside(sandbox, root))) throw bad('is under /proc, /dev or /run/genswarms');
  if (RESERVED_SANDBOX_PATHS.some((reserved) => isSameOrInside(reserved, sandbox))) throw bad('would cover a mount of the boundary');
}
