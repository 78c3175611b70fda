import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { ensurePrivateDir } from './state-dir';

/**
 * Host clients (no sandbox): `<state_dir>/skills/<basename>` symlinks to each skill path
 * (CONTRACT §10.2 GENSWARMS_SKILLS_DIR). Stale links are replaced; nothing is followed.
 */
export async function linkSkills(stateDir: string, skills: readonly string[], uid: number): Promise<string> {
  const dir = path.join(stateDir, 'skills');
  await ensurePrivateDir(dir, uid);
  for (const entry of await fsp.readdir(dir)) {
    const p = path.join(dir, entry);
    if ((await fsp.lstat(p)).isSymbolicLink()) await fsp.unlink(p);
  }
  for (const skill of skills) {
    await fsp.symlink(skill, path.join(dir, path.basename(skill)));
  }
  return dir;
}

/** Create the workspace (0700) if it is missing; it must be a real directory. */
export async function ensureWorkspaceDir(workspace: string): Promise<void> {
  await fsp.mkdir(workspace, { recursive: true, mode: 0o700 });
  const st = await fsp.lstat(workspace);
  if (!st.isDirectory()) throw new RunnerError('unsafe_workspace', 'workspace is not a directory (or is a symlink)');
}
