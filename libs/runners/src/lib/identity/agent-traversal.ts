import { closeSync, constants as fsc, fchmodSync, fchownSync, fstatSync, openSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { agentIdentityOf, needsPrivilegeDrop, traversalGroupOf } from './agent-identity';
import { isFdAt } from '../state/state-dir';

/** Mode of a directory on the way down to an agent's own directories: owner rwx, the agent group search only. */
export const AGENT_TRAVERSAL_MODE = 0o710;

/**
 * An unsandboxed agent of a root server (local, tmux runner `none`) must reach its state_dir and a
 * default workspace below `$GENSWARMS_HOME` (0700). Every directory strictly between the home and each
 * target (the home included) gets group = the traversal group (`traversalGroupOf`: the agents' shared
 * group when each agent has its own identity, else the one agent gid) and mode 0710: the agent may pass through by
 * exact name but never list, and only the agent group gets even that (not "others"). The targets
 * themselves are the agent's (0700, handed over by `ensurePrivateDir`/`ensureWorkspaceDir`); siblings
 * such as the database (0600), `tmux/` and `manifests/` (0700) keep their own modes, so nothing else
 * becomes reachable. Each directory is opened O_NOFOLLOW and changed through its descriptor; one that
 * is a link or not owned by the server → `state_dir_unsafe`. Targets outside the home are not touched.
 * No-op when the server is not root (agents run as the server itself).
 */
export async function grantAgentTraversal(ctx: RunnerContext, targets: readonly string[]): Promise<void> {
  if (!needsPrivilegeDrop(ctx)) return;
  const gid = traversalGroupOf(ctx);
  const dirs = new Set<string>();
  for (const target of targets) for (const dir of dirsBetween(ctx.home, target)) dirs.add(dir);
  // home's own parents are the operator's (e.g. /root, 0700): checked, never re-moded
  const who = { ...agentIdentityOf(ctx), group: gid };
  if (dirs.size > 0) assertAgentCanReach(ctx.home, who, 'state_dir_unsafe');
  for (const dir of [...dirs].sort()) openForAgentGroup(dir, ctx.serverUid, gid);
  for (const target of targets) if (dirsBetween(ctx.home, target).length === 0) assertAgentCanReach(target, who, 'unsafe_workspace');
}

/**
 * A path outside the home (a workspace, or the home's own parents) is the operator's: never re-moded, but
 * checked, so a parent that denies the agent search (e.g. root's 0700 home directory) is refused now
 * (`unsafe_workspace` for a workspace, `state_dir_unsafe` for GENSWARMS_HOME) instead of failing inside the
 * client. Mode bits only (an ACL that grants more is not consulted).
 */
function assertAgentCanReach(
  target: string,
  agent: { uid: number; gid: number; group: number },
  code: 'unsafe_workspace' | 'state_dir_unsafe',
): void {
  const parts = path
    .resolve(target)
    .split(path.sep)
    .filter((p) => p.length > 0);
  let dir: string = path.sep;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const st = statSync(dir);
    const bit = st.uid === agent.uid ? 0o100 : st.gid === agent.gid || st.gid === agent.group ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) {
      throw new RunnerError(code, `the agent uid ${agent.uid} cannot reach ${target}: ${dir} denies it search (x)`, {
        details: { path: dir },
      });
    }
  }
}

/** `home` and each directory below it that leads to `target` (target excluded); [] when target is not under home. */
export function dirsBetween(home: string, target: string): string[] {
  const rel = path.relative(home, path.resolve(target));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const parts = rel.split(path.sep);
  const dirs = [home];
  for (let i = 1; i < parts.length; i += 1) dirs.push(path.join(home, ...parts.slice(0, i)));
  return dirs;
}

/** Synchronous calls: five shared directories per agent start, a few µs each (see ensurePrivateDirSync). */
function openForAgentGroup(dir: string, serverUid: number, gid: number): void {
  let fd: number;
  try {
    fd = openSync(dir, fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW);
  } catch (err) {
    throw new RunnerError('state_dir_unsafe', `${dir} is a symlink or not a directory`, { details: { path: dir }, cause: err });
  }
  try {
    const st = fstatSync(fd);
    if (st.uid !== serverUid)
      throw new RunnerError('state_dir_unsafe', `${dir} is not owned by the server user`, { details: { path: dir } });
    if (!isFdAt(fd, dir)) throw new RunnerError('state_dir_unsafe', `${dir} was replaced while being opened`, { details: { path: dir } });
    if (st.gid !== gid) fchownSync(fd, serverUid, gid);
    if ((st.mode & 0o7777) !== AGENT_TRAVERSAL_MODE) fchmodSync(fd, AGENT_TRAVERSAL_MODE);
  } finally {
    closeSync(fd);
  }
}
