import { constants as fsc, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * Reading a tree an agent controls (its clone), by descriptor: each directory is opened relative to its
 * parent's descriptor through `/proc/self/fd/<fd>/<name>` (Node has no openat) with O_NOFOLLOW, so no link is
 * followed and a component swapped meanwhile is refused; files are opened O_NOFOLLOW|O_NONBLOCK (a FIFO never
 * blocks) and checked by fstat. Names stay bytes: a non-UTF-8 name is read, never mangled.
 */
const DIR_FLAGS = fsc.O_RDONLY | fsc.O_DIRECTORY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK;
const FILE_FLAGS = fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK | fsc.O_NOCTTY;

export type EntryKind = 'file' | 'dir' | 'link' | 'other';

export interface TreeEntry {
  readonly name: Buffer;
  readonly kind: EntryKind;
  readonly mode: number;
  readonly size: number;
  readonly uid: number;
  /** `ino:size:mtime:ctime` (ns): changes whenever the content can have (ctime cannot be set back by its owner). */
  readonly stamp: string;
  readonly ctimeMs: number;
}

export type FileRead = { kind: 'ok'; data: Buffer; mode: number } | { kind: 'too_large'; size: number } | { kind: 'not_regular' };

/** `/proc/self/fd/<fd>/<name>` as bytes. */
export function pathIn(dir: FileHandle, name: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`/proc/self/fd/${dir.fd}/`), typeof name === 'string' ? Buffer.from(name) : name]);
}

/** Opens a directory by absolute path, refusing a link as its last component. */
export function openDirPath(p: string): Promise<FileHandle> {
  return fsp.open(p, DIR_FLAGS);
}

/** Opens the directory `name` inside `dir`; undefined when missing, a link or not a directory. */
export async function openDirIn(dir: FileHandle, name: Buffer | string): Promise<FileHandle | undefined> {
  try {
    return await fsp.open(pathIn(dir, name), DIR_FLAGS);
  } catch {
    return undefined; // expected: missing, a link (ELOOP) or not a directory (ENOTDIR): all mean "no such directory"
  }
}

/** Opens `names` one below the other from `dir`; undefined as soon as one is not a real directory. */
export async function openDirChain(dir: FileHandle, names: readonly string[]): Promise<FileHandle | undefined> {
  let at = dir;
  for (const name of names) {
    const next = await openDirIn(at, name);
    if (at !== dir) await at.close();
    if (next === undefined) return undefined;
    at = next;
  }
  return at;
}

/** The entries of `dir` (lstat each: a link is reported as a link, never followed), at most `max`. */
export async function listDir(dir: FileHandle, max: number): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
  const names = (await fsp.readdir(`/proc/self/fd/${dir.fd}`, { encoding: 'buffer' })) as Buffer[];
  const entries: TreeEntry[] = [];
  for (const name of names.slice(0, max)) {
    let st;
    try {
      st = await fsp.lstat(pathIn(dir, name), { bigint: true });
    } catch {
      continue; // expected: removed meanwhile
    }
    const kind: EntryKind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    const stamp = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    entries.push({ name, kind, mode: Number(st.mode), size: Number(st.size), uid: Number(st.uid), stamp, ctimeMs: Number(st.ctimeMs) });
  }
  return { entries, truncated: names.length > max };
}

/**
 * Reads the regular file `name` inside `dir`, at most `maxBytes` (a larger one is not read). With `owner`, a
 * file of another uid is `not_regular` (checked on the open descriptor, before any byte is read).
 */
export async function readFileIn(dir: FileHandle, name: Buffer | string, maxBytes: number, owner?: number): Promise<FileRead> {
  let h: FileHandle;
  try {
    h = await fsp.open(pathIn(dir, name), FILE_FLAGS);
  } catch {
    return { kind: 'not_regular' }; // expected: a link (ELOOP), removed, or unopenable: never followed
  }
  try {
    const st = await h.stat();
    if (!st.isFile() || (owner !== undefined && st.uid !== owner)) return { kind: 'not_regular' };
    if (st.size > maxBytes) return { kind: 'too_large', size: st.size };
    const data = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const { bytesRead } = await h.read(data, off, st.size - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return { kind: 'ok', data: data.subarray(0, off), mode: st.mode };
  } finally {
    await h.close();
  }
}

/** Opens the regular file `name` inside `dir` (of uid `owner` when given; no link followed); undefined for anything else. */
export async function openRegularIn(
  dir: FileHandle,
  name: Buffer,
  owner: number | undefined,
): Promise<{ handle: FileHandle; size: number; mode: number; uid: number } | undefined> {
  let h: FileHandle;
  try {
    h = await fsp.open(pathIn(dir, name), FILE_FLAGS);
  } catch {
    return undefined; // expected: a link (ELOOP), removed, or unopenable: never followed
  }
  const st = await h.stat();
  if (st.isFile() && (owner === undefined || st.uid === owner)) return { handle: h, size: st.size, mode: st.mode, uid: st.uid };
  await h.close();
  return undefined;
}

/** The target of the link `name` inside `dir` (bytes), or undefined. */
export async function readLinkIn(dir: FileHandle, name: Buffer): Promise<Buffer | undefined> {
  try {
    return (await fsp.readlink(pathIn(dir, name), { encoding: 'buffer' })) as Buffer;
  } catch {
    return undefined; // expected: replaced meanwhile
  }
}
