import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { walkWorkspace } from '../workspace/workspace-walk';
import { ensurePrivateDir, ownUid, type DirOwner } from './state-dir';

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
 * Creates the workspace (0700) or adopts an existing one, by a no-follow walk down from the deepest of
 * `roots` that holds it (`walkWorkspace`, docs/security.md "Workspace roots"): every directory on the way
 * must be a real directory of the server user or root, the workspace one of the server user or the agent
 * uid. With `owners` whose agent is not the server (a root server), a workspace of the server's (created
 * now or adopted) is handed to the agent by fchown — the directory itself, never its contents. A third
 * uid, a link or a non-directory → `unsafe_workspace`; no roots, or none holding it → `workspace_outside_roots`.
 * Without `owners` nothing is handed over and a workspace owned by anyone but the server user is refused.
 */
export async function ensureWorkspaceDir(workspace: string, owners?: WorkspaceOwners, roots: readonly string[] = []): Promise<void> {
  // synchronous calls inside: a few µs each on the launch's critical path (see ensurePrivateDirSync)
  walkWorkspace(
    workspace,
    roots,
    owners === undefined ? { serverUid: ownUid(), handOver: false } : { serverUid: owners.serverUid, agent: owners.agent, handOver: true },
  );
}
