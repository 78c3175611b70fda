import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertSafeHostPath } from './mount-safety';

/**
 * docs/runners.md: a workspace that is `/`, the server user's home, or fails the mount-safety rule
 * (overlaps GENSWARMS_HOME other than the agent's OWN `<home>/workspaces/<swarm>/<agent>`, another
 * agent's directory, a system root; a socket, FIFO or device) → `unsafe_workspace`. Returns the real path.
 */
export function assertWorkspaceSafe(spec: Pick<AgentLaunchSpec, 'swarm' | 'agent' | 'workspace'>, ctx: RunnerContext): string {
  const { workspace, agent } = spec;
  const refuse = (why: string): RunnerError => new RunnerError('unsafe_workspace', `workspace ${why}`, { agent, details: { agent } });
  if (!path.isAbsolute(workspace) || /[\0\n]/.test(workspace)) throw refuse('must be an absolute path');
  if (path.resolve(workspace) === '/') throw refuse('is /');
  if (ctx.userHome !== undefined && path.resolve(workspace) === path.resolve(ctx.userHome)) throw refuse("is the server user's home");
  return assertSafeHostPath(workspace, 'workspace', spec, ctx);
}
