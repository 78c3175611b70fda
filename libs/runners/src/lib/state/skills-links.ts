import { closeSync, constants as fsc, fchownSync, fstatSync, lstatSync, mkdirSync, openSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { ensurePrivateDir, isFdAt, type DirOwner } from './state-dir';

/**
 * Host clients (no sandbox): `<state_dir>/skills/<basename>` symlinks to each skill path
 * (docs/runners.md GENSWARMS_SKILLS_DIR). Stale links are replaced; nothing is followed.
 * With `owner` (a root server's agent identity) the directory belongs to the agent.
 */
export async function linkSkills(stateDir: string, skills: readonly string[], uid: number, owner?: DirOwner): Promise<string> {
  const dir = path.join(stateDir, 'skills');
  await ensurePrivateDir(dir, uid, owner);
  for (const entry of await fsp.readdir(dir)) {
    const p = path.join(dir, entry);
    if ((await fsp.lstat(p)).isSymbolicLink()) await fsp.unlink(p);
  }
  for (const skill of skills) {
    const link = path.join(dir, path.basename(skill));
    await fsp.symlink(skill, link);
    if (owner !== undefined && owner.uid !== uid) await fsp.lchown(link, owner.uid, owner.gid); // so the agent can replace it
  }
  return dir;
}

/** Who runs the agent: the server's uid and the agent identity (equal unless the server runs as root). */
export interface WorkspaceOwners {
  readonly serverUid: number;
  readonly agent: DirOwner;
}

/**
 * Create the workspace (0700) if it is missing; it must be a real directory. With `owners` whose agent
 * is not the server (a root server), the workspace directory itself (not its contents) is handed to the
 * agent uid by fchown when the server owns it, so the client can write there; a workspace owned by any
 * third uid is refused (`unsafe_workspace`): the agent could not use it, and we never take it over.
 */
export async function ensureWorkspaceDir(workspace: string, owners?: WorkspaceOwners): Promise<void> {
  // synchronous calls inside: a few µs each on the launch's critical path (see ensurePrivateDirSync)
  mkdirSync(workspace, { recursive: true, mode: 0o700 });
  const st = lstatSync(workspace);
  if (!st.isDirectory()) throw new RunnerError('unsafe_workspace', 'workspace is not a directory (or is a symlink)');
  if (owners === undefined || owners.agent.uid === owners.serverUid) return;
  let fd: number;
  try {
    fd = openSync(workspace, fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW);
  } catch (err) {
    throw new RunnerError('unsafe_workspace', 'workspace is not a directory (or is a symlink)', { cause: err });
  }
  try {
    const fst = fstatSync(fd);
    if (fst.ino !== st.ino || fst.dev !== st.dev) throw new RunnerError('unsafe_workspace', 'workspace changed while being checked');
    // a parent swapped for a link since plan must not make us chown some other root-owned directory
    if (!isFdAt(fd, workspace))
      throw new RunnerError('unsafe_workspace', 'workspace was moved or reached through a link while being checked');
    if (fst.uid === owners.serverUid) fchownSync(fd, owners.agent.uid, owners.agent.gid);
    else if (fst.uid !== owners.agent.uid)
      throw new RunnerError('unsafe_workspace', 'workspace is owned by another user than the server or the agent uid');
  } finally {
    closeSync(fd);
  }
}
