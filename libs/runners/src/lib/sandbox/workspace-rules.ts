import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { isSameOrInside } from './path-rules';

/**
 * CONTRACT §10.5: a workspace that is `/`, the server user's home, or equal to, inside or containing
 * GENSWARMS_HOME → `unsafe_workspace`. One exception: the default workspaces
 * `<home>/workspaces/<swarm>/<agent…>` (depth ≥ 2), which expose nothing but themselves.
 */
export function assertWorkspaceSafe(workspace: string, ctx: RunnerContext, agent: string): void {
  const refuse = (why: string): RunnerError => new RunnerError('unsafe_workspace', `workspace ${why}`, { agent, details: { agent } });
  if (!path.isAbsolute(workspace) || /[\0\n]/.test(workspace)) throw refuse('must be an absolute path');
  const ws = path.resolve(workspace);
  if (ws === '/') throw refuse('is /');
  if (ctx.userHome !== undefined && ws === path.resolve(ctx.userHome)) throw refuse("is the server user's home");
  const home = path.resolve(ctx.home);
  if (isSameOrInside(home, ws)) throw refuse('contains GENSWARMS_HOME');
  if (isSameOrInside(ws, home)) {
    const rel = path.relative(path.join(home, 'workspaces'), ws);
    const depth = rel.split(path.sep).length;
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel === '' || depth < 2) throw refuse('is inside GENSWARMS_HOME');
  }
}
