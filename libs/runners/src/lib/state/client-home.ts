import { closeSync, constants as fsc, fchmodSync, fchownSync, fstatSync, mkdirSync, openSync } from 'node:fs';
import * as path from 'node:path';
import type { LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { agentIdentityOf } from '../identity/agent-identity';
import { isFdAt, writePrivateFileSync, type DirOwner } from './state-dir';

/** One component of a HOME path an adapter may name: no `.`/`..`, no separator, no control character. */
const HOME_COMPONENT_RE = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;

/**
 * Writes a coding client's HOME files (plan.clientHome) into the agent's state_dir, which `start` has
 * already verified private: each directory created 0700 (or re-moded to it) and owned by the agent, each
 * file replaced O_EXCL|O_NOFOLLOW 0600 and handed to the agent — the client rewrites some of them as it
 * runs. Links, foreign owners and swapped paths → `state_dir_unsafe`. Files hold no key (docs/clients.md).
 */
export async function writeClientHome(plan: LaunchPlan, ctx: RunnerContext): Promise<void> {
  const home = plan.clientHome;
  if (home === undefined) return;
  const owner = agentIdentityOf(ctx);
  const dirs = [...home.dirs].sort((a, b) => depth(a) - depth(b));
  for (const dir of dirs) ensureHomeDir(inHome(plan.stateDir, dir), ctx.serverUid, owner);
  for (const file of home.files) {
    const target = inHome(plan.stateDir, file.path);
    const parent = path.dirname(file.path);
    if (parent !== '.' && !dirs.includes(parent)) throw unsafe(target, 'is in a directory the adapter did not name');
    writePrivateFileSync(target, file.content, ctx.serverUid, owner);
  }
}

/** `<stateDir>/<rel>` for a relative `/`-separated path of plain components; anything else is refused. */
export function inHome(stateDir: string, rel: string): string {
  const parts = rel.split('/');
  if (parts.length > 8 || !parts.every((p) => HOME_COMPONENT_RE.test(p))) throw unsafe(rel, 'is not a plain path inside HOME');
  return path.join(stateDir, ...parts);
}

function depth(rel: string): number {
  return rel.split('/').length;
}

/** Creates (0700) or checks one directory below a verified parent: no link, ours or the agent's, mode 0700. */
function ensureHomeDir(dir: string, serverUid: number, owner: DirOwner): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw unsafe(dir, 'cannot be created', err);
  }
  let fd: number;
  try {
    fd = openSync(dir, fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW);
  } catch (err) {
    throw unsafe(dir, 'is a symlink or not a directory', err);
  }
  try {
    const st = fstatSync(fd);
    if (!isFdAt(fd, dir)) throw unsafe(dir, 'was replaced while being opened');
    if (st.uid === serverUid && owner.uid !== serverUid) fchownSync(fd, owner.uid, owner.gid);
    else if (st.uid !== owner.uid) throw unsafe(dir, 'belongs to another user');
    if ((st.mode & 0o7777) !== 0o700) fchmodSync(fd, 0o700);
  } finally {
    closeSync(fd);
  }
}

function unsafe(p: string, why: string, cause?: unknown): RunnerError {
  return new RunnerError('state_dir_unsafe', `${p} ${why}`, { details: { path: p }, cause });
}
