import { closeSync, constants as fsc, fchownSync, fstatSync, mkdirSync, openSync } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { isFdAt } from '../state/state-dir';
import { systemDirOf } from './system-dirs';
import type { RunnerContext } from '../port';
import { workspaceOwners } from '../identity/agent-identity';
import { isStrictlyInside, workspaceWalkRoots } from './workspace-roots';

/**
 * Every directory of the walk is opened by descriptor: O_NOFOLLOW refuses a link as the final component,
 * O_DIRECTORY a file, FIFO or device before anything is opened, O_NONBLOCK is belt and braces.
 */
const DIR_FLAGS = fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK;
/** Directories the walk creates (workspace and missing parents) are the host's and private. */
const CREATED_DIR_MODE = 0o700;

/**
 * Who may own what the walk finds: the server user, and the agent identity (≠ `serverUid` on a root server).
 * `handOver`: a workspace of the server's is handed to the agent (runner start); false only checks (engine).
 */
export interface WalkOwners {
  readonly serverUid: number;
  readonly agent?: { readonly uid: number; readonly gid: number };
  readonly handOver: boolean;
}

/**
 * Creates or adopts `workspace` (an absolute real path strictly below one of `roots`), walking down from the
 * deepest existing root one component at a time, each opened relative to the previous descriptor through
 * `/proc/self/fd/<fd>/<name>` (Node has no openat), so no link is ever followed and a component swapped
 * meanwhile is refused instead. A missing component is created 0700. Each directory on the way must belong to
 * the server user or root; the workspace to the server user (adopted: handed to `owners.agent` by fchown) or
 * already to the agent uid. Anything else → `unsafe_workspace`; not below a root → `workspace_outside_roots`.
 * Changes nothing it did not create or adopt; never opens, chowns or chmods a file.
 */
export function walkWorkspace(workspace: string, roots: readonly string[], owners: WalkOwners): void {
  const abs = path.resolve(workspace);
  const refuse = (why: string, cause?: unknown): RunnerError =>
    new RunnerError('unsafe_workspace', `workspace ${why}`, { details: { path: abs }, cause });
  if (process.platform !== 'linux') throw refuse('needs Linux /proc/self/fd for a descriptor-relative walk');
  const candidates = roots
    .filter((r) => path.isAbsolute(r))
    .map((r) => path.resolve(r))
    .filter((r) => isStrictlyInside(abs, r))
    .sort((a, b) => b.length - a.length);
  if (candidates.length === 0)
    throw new RunnerError('workspace_outside_roots', `workspace is outside the workspace roots (${roots.join(', ')})`, {
      details: { path: abs, roots: [...roots] },
    });
  const system = systemDirOf(abs);
  if (system !== undefined && !candidates.some((r) => isStrictlyInside(r, system) || r === system)) {
    throw refuse(`is or lies in the system directory ${system}`);
  }
  for (const root of candidates) {
    const fd = openDir(root, refuse);
    if (fd === undefined) continue; // a missing root: a shallower one (GENSWARMS_HOME for a default workspace) may do
    walkFrom(fd, root, path.relative(root, abs).split(path.sep), owners, refuse);
    return;
  }
  throw refuse('has no existing root to be created in');
}

/**
 * The engine's creation of a planned workspace, after every agent of a start or mutation planned: the
 * same walk from the context's roots, checking owners but handing nothing over (the runner's start does).
 */
export function createWorkspaceDir(ctx: RunnerContext, workspace: string): void {
  walkWorkspace(workspace, workspaceWalkRoots(ctx), { ...workspaceOwners(ctx), handOver: false });
}

type Refuse = (why: string, cause?: unknown) => RunnerError;

function walkFrom(rootFd: number, root: string, parts: readonly string[], owners: WalkOwners, refuse: Refuse): void {
  let fd = rootFd;
  let at = root;
  try {
    for (const [i, name] of parts.entries()) {
      const parent = fd;
      at = path.join(at, name);
      fd = openOrCreate(parent, name, at, refuse);
      closeSync(parent);
      const st = fstatSync(fd);
      if (i < parts.length - 1 && st.uid !== owners.serverUid && st.uid !== 0) {
        throw refuse(`lies below ${at}, owned by neither the server user nor root`);
      }
    }
    adopt(fd, at, owners, refuse);
  } finally {
    closeSync(fd);
  }
}

/** The workspace itself: the server's (handed to the agent on a root server) or already the agent's. */
function adopt(fd: number, at: string, owners: WalkOwners, refuse: Refuse): void {
  const st = fstatSync(fd);
  // a component renamed or moved since it was opened: the descriptor no longer names the planned path
  if (!isFdAt(fd, at)) throw refuse('was moved while being checked');
  const agent = owners.agent;
  if (st.uid === owners.serverUid) {
    if (owners.handOver && agent !== undefined && agent.uid !== owners.serverUid) fchownSync(fd, agent.uid, agent.gid);
    return;
  }
  if (agent === undefined || st.uid !== agent.uid) throw refuse('is owned by neither the server user nor the agent uid');
}

function openOrCreate(parent: number, name: string, at: string, refuse: Refuse): number {
  const child = `/proc/self/fd/${parent}/${name}`;
  const opened = openDir(child, refuse, at);
  if (opened !== undefined) return opened;
  try {
    mkdirSync(child, { mode: CREATED_DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw refuse(`cannot create ${at}`, err);
  }
  const created = openDir(child, refuse, at);
  if (created === undefined) throw refuse(`${at} vanished while being created`);
  return created;
}

/** The directory's descriptor; undefined when missing; a link, a non-directory or any other error → refused. */
function openDir(p: string, refuse: Refuse, shown = p): number | undefined {
  try {
    return openSync(p, DIR_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw refuse(`has ${shown} that is a symlink or not a directory`, err);
    throw refuse(`cannot open ${shown} (${code ?? 'error'})`, err);
  }
}
