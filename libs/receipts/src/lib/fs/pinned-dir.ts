import { closeSync, constants, fchownSync, fstatSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { ReceiptError } from '../errors/receipt-error';
import { isErrno } from './dir-chain';
import { assertRealPathForm } from './path-rules';

/*
 * The steps of the walk that only look (open O_NONBLOCK of a directory, fstat, fchown, readlink,
 * close) are synchronous syscalls: through fs/promises each cost ~10× its syscall in event-loop CPU, and a
 * turn walks twice (turn dir, inbox); none can block on a FIFO or device. Creating a directory allocates an
 * inode, which took 0.3–1 ms on a busy ext4 here: that one stays on the thread pool.
 */

/**
 * Every directory of the walk is opened by descriptor, never through a link: O_NOFOLLOW refuses a link as
 * the final component, O_DIRECTORY refuses a file/FIFO/socket/device before anything is opened (so a
 * planted FIFO cannot block), O_NONBLOCK is belt and braces. libuv adds O_CLOEXEC.
 */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Directories the walk creates are private to the host. */
export const PINNED_DIR_MODE = 0o700;
/** Deeper paths than this are a caller bug (the engine uses at most two components). */
export const MAX_PATH_COMPONENTS = 16;

/** A directory held open by descriptor; `at(name)` names an entry of THIS directory, whatever its path became. */
export interface PinnedDir {
  /** The open directory descriptor; the caller closes it (`closePinnedDir`). */
  readonly fd: number;
  readonly dev: bigint;
  /** The directory's logical path (root + components), for results and the final identity check. */
  readonly path: string;
  /**
   * Set when a root host walks below a root owned by another uid (an agent's workspace, docs/security.md#10-agent-runners-and-sandboxes
   * "uid rule"): directories of the host's below it, and every file written there, are handed to this owner.
   */
  readonly handTo?: { readonly uid: number; readonly gid: number };
  at(name: string): string;
}

/** What a refused walk met: a link, a non-directory, a missing root, or anything else doubtful (owner, device, errno). */
export type WalkFault = 'link' | 'not_directory' | 'missing' | 'unsafe';

export type WalkRefusal = { kind: 'refused'; reason: 'inbox_unsafe'; detail: string; fault: WalkFault };

export type PinnedWalk = { kind: 'ok'; dir: PinnedDir } | WalkRefusal;

/**
 * Opens `rootReal` (trusted: the caller verified it) and walks down `components` one at a time, each opened
 * relative to the previous descriptor through `/proc/self/fd/<fd>/<name>` (Node has no openat). A missing
 * component is created 0700 the same way, so it can only ever be created inside the directory already
 * pinned. Each step is fstat-checked: a directory, owned by the root's owner or by this process.
 * Throws ReceiptError `invalid_path` for a bad root or component; every filesystem doubt is `refused`, with a
 * `fault` for callers that report finer reasons. The caller closes the descriptor (`closePinnedDir`).
 */
export async function openPinnedDir(rootReal: string, components: readonly string[]): Promise<PinnedWalk> {
  assertRealPathForm(rootReal, 'root');
  assertComponents(components);
  if (process.platform !== 'linux') return refuseWalk('unsafe', 'descriptor-relative walk needs Linux /proc/self/fd');
  const root = openDirAt(rootReal, rootReal);
  if (root.kind === 'missing') return refuseWalk('missing', `'${rootReal}' does not exist`);
  if (root.kind === 'refused') return root;
  const euid = process.geteuid?.() ?? root.uid;
  const owners = new Set<number>([root.uid, euid]);
  const handTo = euid === 0 && root.uid !== 0 ? { uid: root.uid, gid: root.gid } : undefined;
  let current: PinnedDir = handTo === undefined ? root.dir : { ...root.dir, handTo };
  for (const component of components) {
    const next = await stepInto(current, component, owners, handTo);
    closePinnedDir(current);
    if (next.kind === 'refused') return next;
    current = next.dir;
  }
  return { kind: 'ok', dir: current };
}

/** True when the kernel still names the pinned directory by its logical path (it was not moved or deleted). */
export function isPinnedDirInPlace(dir: PinnedDir): boolean {
  try {
    return readlinkSync(`/proc/self/fd/${dir.fd}`) === dir.path;
  } catch {
    // expected: an unreadable descriptor path means the pin no longer holds
    return false;
  }
}

/** Plain names only: non-empty, ≤ 255 bytes, no `/`, no NUL, not `.` or `..`; at most MAX_PATH_COMPONENTS. */
function assertComponents(components: readonly string[]): void {
  if (!Array.isArray(components) || components.length > MAX_PATH_COMPONENTS) {
    throw new ReceiptError('invalid_path', `components must be an array of at most ${MAX_PATH_COMPONENTS} names`);
  }
  for (const c of components as readonly unknown[]) {
    const ok =
      typeof c === 'string' &&
      c.length > 0 &&
      Buffer.byteLength(c) <= 255 &&
      !c.includes('/') &&
      !c.includes('\0') &&
      c !== '.' &&
      c !== '..';
    if (!ok) throw new ReceiptError('invalid_path', 'each path component must be a plain name (no "/", NUL, "." or "..")');
  }
}

/** Closes the pinned directory's descriptor. */
export function closePinnedDir(dir: PinnedDir): void {
  closeSync(dir.fd);
}

async function stepInto(parent: PinnedDir, name: string, owners: ReadonlySet<number>, handTo?: PinnedDir['handTo']): Promise<PinnedWalk> {
  const childPath = parent.path === '/' ? `/${name}` : `${parent.path}/${name}`;
  let opened = openDirAt(parent.at(name), childPath);
  if (opened.kind === 'missing') {
    try {
      await mkdir(parent.at(name), { mode: PINNED_DIR_MODE });
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) return refuseWalk('unsafe', `cannot create '${name}' (${errnoCode(error)})`);
    }
    opened = openDirAt(parent.at(name), childPath);
  }
  if (opened.kind !== 'ok') return opened.kind === 'missing' ? refuseWalk('unsafe', `'${name}' vanished while being created`) : opened;
  if (opened.dir.dev !== parent.dev || !owners.has(opened.uid)) {
    closePinnedDir(opened.dir);
    return refuseWalk('unsafe', `'${name}' is on another device or has an unexpected owner`);
  }
  if (handTo === undefined) return { kind: 'ok', dir: opened.dir };
  // The agent owns its workspace; a directory the host made there (now, or in an earlier run) becomes its too.
  if (opened.uid !== handTo.uid) {
    try {
      fchownSync(opened.dir.fd, handTo.uid, handTo.gid);
    } catch (error) {
      closePinnedDir(opened.dir);
      return refuseWalk('unsafe', `cannot hand '${name}' to the workspace owner (${errnoCode(error)})`);
    }
  }
  return { kind: 'ok', dir: { ...opened.dir, handTo } };
}

type OpenedDir = { kind: 'ok'; dir: PinnedDir; uid: number; gid: number } | { kind: 'missing' } | WalkRefusal;

function openDirAt(openPath: string, logicalPath: string): OpenedDir {
  let fd: number;
  try {
    fd = openSync(openPath, DIR_FLAGS);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { kind: 'missing' };
    // with O_DIRECTORY the kernel reports a link as ENOTDIR too: lstat (never follows) only to name the fault
    if (isErrno(error, 'ELOOP') || isErrno(error, 'ENOTDIR')) {
      if (isSymlink(openPath)) return refuseWalk('link', `'${logicalPath}' is a symlink`);
      return refuseWalk('not_directory', `'${logicalPath}' is not a directory`);
    }
    return refuseWalk('unsafe', `cannot open '${logicalPath}' (${errnoCode(error)})`);
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isDirectory()) throw new Error('not a directory');
    const dir: PinnedDir = { fd, dev: st.dev, path: logicalPath, at: (name) => `/proc/self/fd/${fd}/${name}` };
    return { kind: 'ok', dir, uid: Number(st.uid), gid: Number(st.gid) };
  } catch (error) {
    closeSync(fd);
    return refuseWalk('unsafe', `cannot stat '${logicalPath}' (${errnoCode(error)})`);
  }
}

/** Only names a refusal (the open already failed): any lstat error just means "not known to be a link". */
function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    // expected: the entry may be gone already; the walk refuses either way
    return false;
  }
}

function refuseWalk(fault: WalkFault, detail: string): WalkRefusal {
  return { kind: 'refused', reason: 'inbox_unsafe', detail, fault };
}

export function refuse(detail: string): { kind: 'refused'; reason: 'inbox_unsafe'; detail: string } {
  return { kind: 'refused', reason: 'inbox_unsafe', detail };
}

export function errnoCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'unknown';
}
