import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchownSync, fdatasync, fstatSync, lstatSync, open, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { promisify } from 'node:util';
import { basename, dirname } from 'node:path';
import type { PinnedDir } from './pinned-dir';
import { closePinnedDir, errnoCode, isPinnedDirInPlace, openPinnedDir, refuse } from './pinned-dir';
import { assertPlainName, assertRealPathForm } from './path-rules';

/** Temp files are exclusive, never follow a planted link, and are private (libuv adds O_CLOEXEC). */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const TEMP_MODE = 0o600;
/**
 * Creating the temp file (an inode allocation) and the flush to disk go through the thread pool; every other
 * step is a synchronous syscall (see pinned-dir.ts): the write itself is one message or one receipt.
 */
const openAsync = promisify(open);
const fdatasyncAsync = promisify(fdatasync);

export type SafeWrite = { kind: 'ok'; path: string } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

/** A file renamed into place whose data is still being flushed: `flushed` settles once it is on disk. */
export type PlacedFile = { kind: 'ok'; path: string; flushed: Promise<void> } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

/**
 * docs/messaging.md, walking from a trusted root: writes `<rootReal>/<components…>/<name>` atomically.
 * `rootReal` is a real directory the caller verified (the workspace); every component below it is
 * untrusted and is opened by descriptor without following links (created 0700 when missing, only ever
 * inside the directory already pinned). The data goes to an O_EXCL|O_NOFOLLOW 0600 temp file created in
 * the pinned directory, then renamed over `name` there (rename replaces a planted link, never follows
 * it). Nothing is ever created outside the root, whatever the agent swaps meanwhile.
 * Any doubt → `{kind:'refused', reason:'inbox_unsafe'}`. Throws only for a bad root/component/name.
 */
export async function writeFileUnder(
  rootReal: string,
  components: readonly string[],
  name: string,
  data: string | Buffer,
): Promise<SafeWrite> {
  const placed = await walkAndWrite(rootReal, components, name, data, true);
  return placed.kind === 'ok' ? { kind: 'ok', path: placed.path } : placed;
}

/**
 * `writeFileUnder` with the flush after the rename: the same walk, temp file and checks, but the name is in
 * place before the data is on disk, and `flushed` (fdatasync through the same descriptor) settles after. For
 * a caller that records elsewhere that the file exists and awaits `flushed` before that record — the engine's
 * inbox (the flush was ~5 ms of every hop on this box's disk, now overlapping the delivery).
 */
export async function placeFileUnder(
  rootReal: string,
  components: readonly string[],
  name: string,
  data: string | Buffer,
): Promise<PlacedFile> {
  return walkAndWrite(rootReal, components, name, data, false);
}

async function walkAndWrite(
  rootReal: string,
  components: readonly string[],
  name: string,
  data: string | Buffer,
  flushFirst: boolean,
): Promise<PlacedFile> {
  assertPlainName(name);
  const walk = await openPinnedDir(rootReal, components);
  if (walk.kind === 'refused') return refuse(walk.detail);
  const dir = walk.dir;
  try {
    return await writeInPinnedDir(dir, name, data, flushFirst);
  } finally {
    closePinnedDir(dir);
  }
}

/**
 * docs/messaging.md (original form): writes `<dirPath>/<name>`, trusting only the PARENT of `dirPath`.
 * Equivalent to `writeFileUnder(dirname(dirPath), [basename(dirPath)], name, data)`; prefer
 * `writeFileUnder(workspace, ['.inbox', …], …)` so that every directory below the workspace is pinned.
 */
export async function writeFileSafely(dirPath: string, name: string, data: string | Buffer): Promise<SafeWrite> {
  assertRealPathForm(dirPath, 'dirPath');
  assertPlainName(name);
  if (dirPath === '/') return refuse('the filesystem root has no trusted parent');
  return writeFileUnder(dirname(dirPath), [basename(dirPath)], name, data);
}

async function writeInPinnedDir(dir: PinnedDir, name: string, data: string | Buffer, flushFirst: boolean): Promise<PlacedFile> {
  const temp = `.${name}.${randomBytes(8).toString('hex')}.tmp`;
  const written = await writeTemp(dir, temp, data, flushFirst);
  if (written.kind === 'refused') return written;
  const placed = placeTemp(dir, temp, name, written);
  if (placed.kind === 'refused' || flushFirst) {
    closeSync(written.fd);
    return placed.kind === 'refused' ? placed : { ...placed, flushed: Promise.resolve() };
  }
  const fd = written.fd;
  const flushed = fdatasyncAsync(fd).finally(() => closeSync(fd));
  // expected: marks a failed flush as handled (no unhandled rejection when a caller drops `flushed`); awaiting it still rejects
  flushed.catch(() => undefined);
  return { ...placed, flushed };
}

/** Renames the written temp file over `name` in the pinned directory and checks what landed there. */
function placeTemp(
  dir: PinnedDir,
  temp: string,
  name: string,
  written: { dev: bigint; ino: bigint },
): { kind: 'ok'; path: string } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string } {
  try {
    renameSync(dir.at(temp), dir.at(name));
  } catch (error) {
    removeTemp(dir, temp);
    return refuse(`rename failed (${errnoCode(error)})`);
  }
  const placed = lstatOrUndefined(dir.at(name));
  if (placed === undefined || placed.ino !== written.ino || placed.dev !== written.dev) return refuse('target changed after rename');
  if (!isPinnedDirInPlace(dir)) return refuse('directory moved or removed during the write');
  return { kind: 'ok', path: dir.path === '/' ? `/${name}` : `${dir.path}/${name}` };
}

type TempWritten = { kind: 'ok'; fd: number; dev: bigint; ino: bigint } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

/** The temp file written (and flushed when `flushFirst`); on `ok` its descriptor is still open for the caller. */
async function writeTemp(dir: PinnedDir, temp: string, data: string | Buffer, flushFirst: boolean): Promise<TempWritten> {
  let fd: number;
  try {
    fd = await openAsync(dir.at(temp), TEMP_FLAGS, TEMP_MODE);
  } catch (error) {
    return refuse(`cannot create temp file (${errnoCode(error)})`);
  }
  let result: TempWritten;
  try {
    if (dir.handTo !== undefined) fchownSync(fd, dir.handTo.uid, dir.handTo.gid); // before any byte: the agent reads and removes it
    result = await fillTemp(fd, dir, data, flushFirst);
  } catch (error) {
    result = refuse(`write failed (${errnoCode(error)})`);
  }
  if (result.kind === 'refused') {
    closeSync(fd);
    removeTemp(dir, temp);
  }
  return result;
}

function removeTemp(dir: PinnedDir, temp: string): void {
  try {
    unlinkSync(dir.at(temp));
  } catch {
    // best-effort: the temp name is ours and random; the refusal is what is returned
  }
}

async function fillTemp(fd: number, dir: PinnedDir, data: string | Buffer, flushFirst: boolean): Promise<TempWritten> {
  const st = fstatSync(fd, { bigint: true });
  if (!st.isFile() || st.nlink !== 1n || st.dev !== dir.dev) return refuse('temp file is not a fresh regular file');
  writeAll(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  if (flushFirst) await fdatasyncAsync(fd);
  return { kind: 'ok', fd, dev: st.dev, ino: st.ino };
}

/** writeSync may write less than asked (a signal, a full disk): loop until every byte is down or it throws. */
function writeAll(fd: number, bytes: Buffer): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    // expected: a target gone after the rename is refused by the caller
    return undefined;
  }
}
