import {
  closeSync,
  constants as fsc,
  fchmodSync,
  fchownSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  promises as fsp,
  readlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

/** Env file name below `<state_dir>/.genswarms/` (docs/runners.md). */
export const ENV_FILE_DIR = '.genswarms';
export const ENV_FILE_NAME = 'env';
/** Env names a client may receive (docs/runners.md); the launcher also relies on it. */
export const ENV_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `<home>/state/<swarm>/<agent>` — the agent's private state_dir (its `/root` in a sandbox). */
export function stateDirFor(home: string, swarm: string, agent: string): string {
  return path.join(home, 'state', swarm, agent);
}

/**
 * mkdir 0700 (with parents), walking one component at a time with lstat so no symlink is followed,
 * then verify the leaf by fstat on an O_NOFOLLOW descriptor: a directory, owned by `uid`, mode & 077 = 0.
 * With `owner` ≠ `uid` (a root server's agent identity) the leaf is handed to the agent first and must
 * then be owned by it. Anything else → `state_dir_unsafe` (a credential directory must not be shared or redirected).
 */
export async function ensurePrivateDir(dirPath: string, uid: number, owner?: DirOwner): Promise<void> {
  ensurePrivateDirSync(dirPath, uid, owner);
}

/**
 * ensurePrivateDir with synchronous calls: the same syscalls in the same order, each a few µs of
 * metadata work on a local directory, where a thread-pool round trip per call cost several times the
 * call itself (~15 such calls per agent sat on the launch's critical path).
 */
export function ensurePrivateDirSync(dirPath: string, uid: number, owner?: DirOwner): void {
  const abs = path.resolve(dirPath);
  const parts = abs.split(path.sep).filter((p) => p.length > 0);
  let current: string = path.sep;
  for (const part of parts) {
    current = path.join(current, part);
    ensureComponent(current);
  }
  if (owner !== undefined && owner.uid !== uid) handOverDir(abs, uid, owner);
  verifyPrivateDirSync(abs, owner?.uid ?? uid);
}

/** The uid:gid an agent directory belongs to (the agent identity; docs/security.md#one-identity-per-agent). */
export interface DirOwner {
  readonly uid: number;
  readonly gid: number;
}

/**
 * A root server's agent directory goes to the agent: the leaf only, through an O_NOFOLLOW descriptor
 * (fchown, never a path chown that a swapped link could redirect). Only a directory the server itself
 * owns is handed over; one owned by anybody else stays as it is, and `verifyPrivateDir` refuses it.
 */
function handOverDir(dirPath: string, serverUid: number, owner: DirOwner): void {
  const fd = openDirNoFollow(dirPath);
  try {
    const st = fstatSync(fd);
    if (!isFdAt(fd, dirPath)) throw unsafe(dirPath, 'was replaced while being handed over');
    if (st.isDirectory() && st.uid === serverUid) fchownSync(fd, owner.uid, owner.gid);
  } finally {
    closeSync(fd);
  }
}

function openDirNoFollow(dirPath: string): number {
  try {
    return openSync(dirPath, fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW);
  } catch (err) {
    throw unsafe(dirPath, 'is a symlink or not a directory', err);
  }
}

function ensureComponent(p: string): void {
  let st = lstatOrNull(p);
  if (st === null) {
    try {
      mkdirSync(p, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw unsafe(p, 'cannot be created', err);
    }
    st = lstatOrNull(p);
  }
  if (st === null || st.isSymbolicLink()) throw unsafe(p, 'is a symlink');
  if (!st.isDirectory()) throw unsafe(p, 'is not a directory');
}

/** fstat-verify an existing private directory (no creation). */
export async function verifyPrivateDir(dirPath: string, uid: number): Promise<void> {
  verifyPrivateDirSync(dirPath, uid);
}

function verifyPrivateDirSync(dirPath: string, uid: number): void {
  const fd = openDirNoFollow(dirPath);
  try {
    const st = fstatSync(fd);
    if (!st.isDirectory()) throw unsafe(dirPath, 'is not a directory');
    if (st.uid !== uid) throw unsafe(dirPath, 'is not owned by the expected user (the server, or the agent uid)');
    if ((st.mode & 0o077) !== 0) throw unsafe(dirPath, 'is group/world accessible');
  } finally {
    closeSync(fd);
  }
}

/** Path of the env file for a state dir (host side). */
export function envFilePath(stateDir: string): string {
  return path.join(stateDir, ENV_FILE_DIR, ENV_FILE_NAME);
}

/** Refuses env entries the launcher could misread (docs/runners.md). Names only in messages. */
export function assertEnvEntries(env: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_KEY_RE.test(key)) throw new RunnerError('validation_failed', `invalid env name ${JSON.stringify(key)}`);
    if (typeof value !== 'string' || value.includes('\0') || value.includes('\n')) {
      throw new RunnerError('validation_failed', `env value of ${key} contains NUL or a newline`);
    }
  }
}

/**
 * Write `<stateDir>/.genswarms/env` (docs/runners.md): directory 0700, a stale file removed, then
 * O_CREAT|O_EXCL|O_NOFOLLOW 0600, one `KEY=VALUE` per line. Returns the host path. With `owner` (a root
 * server's agent identity) the directory and the file belong to the agent, who reads and deletes it.
 * Synchronous calls inside, as in ensurePrivateDirSync (one small file on the launch's critical path).
 */
export async function writeEnvFile(
  stateDir: string,
  env: Readonly<Record<string, string>>,
  uid: number = ownUid(),
  owner?: DirOwner,
): Promise<string> {
  assertEnvEntries(env);
  const dir = path.join(stateDir, ENV_FILE_DIR);
  ensurePrivateDirSync(dir, uid, owner);
  const file = path.join(dir, ENV_FILE_NAME);
  const body = Object.entries(env)
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
  // The launcher reads and deletes it as the agent: a root server hands it over before any byte is written.
  writePrivateFileSync(file, body, uid, owner);
  return file;
}

/**
 * Replaces `file` (in a directory already verified private) with `body`: a stale file removed (never
 * followed), then O_CREAT|O_EXCL|O_NOFOLLOW 0600, checked to be the path meant, handed to `owner` before
 * any byte is written. Used for the env file and a coding client's HOME files.
 */
export function writePrivateFileSync(file: string, body: string, uid: number, owner?: DirOwner): void {
  removeFileIfPresentSync(file);
  const fd = openSync(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    if (!isFdAt(fd, file)) throw unsafe(file, 'was replaced while opening');
    if (owner !== undefined && owner.uid !== uid) fchownSync(fd, owner.uid, owner.gid);
    fchmodSync(fd, 0o600);
    writeFileSync(fd, body, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Remove a file (never following a link); absent is fine. */
export async function removeFileIfPresent(file: string): Promise<void> {
  try {
    await fsp.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function removeFileIfPresentSync(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Linux: the opened descriptor must be the path we meant (catches a parent swapped for a link). */
export async function assertDescriptorPath(handle: fsp.FileHandle, expected: string): Promise<void> {
  if (process.platform !== 'linux') return;
  const actual = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
  if (actual !== path.resolve(expected)) throw unsafe(expected, 'was replaced while opening');
}

/** Linux: true when the descriptor is the directory at `expected` (no component was swapped for a link or moved). */
export async function isDescriptorAt(handle: fsp.FileHandle, expected: string): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  return (await fsp.readlink(`/proc/self/fd/${handle.fd}`)) === path.resolve(expected);
}

/** isDescriptorAt for a plain descriptor, synchronously. */
export function isFdAt(fd: number, expected: string): boolean {
  if (process.platform !== 'linux') return true;
  return readlinkSync(`/proc/self/fd/${fd}`) === path.resolve(expected);
}

/** Effective uid of this process (the server user). */
export function ownUid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : 0;
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw unsafe(p, 'cannot be inspected', err);
  }
}

function unsafe(p: string, why: string, cause?: unknown): RunnerError {
  return new RunnerError('state_dir_unsafe', `${p} ${why}`, { details: { path: p }, cause });
}
