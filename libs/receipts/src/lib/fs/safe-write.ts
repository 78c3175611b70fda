import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { PinnedDir } from './pinned-dir';
import { errnoCode, isPinnedDirInPlace, openPinnedDir, refuse } from './pinned-dir';
import { assertPlainName, assertRealPathForm } from './path-rules';

/** Temp files are exclusive, never follow a planted link, and are private (libuv adds O_CLOEXEC). */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const TEMP_MODE = 0o600;

export type SafeWrite = { kind: 'ok'; path: string } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

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
  assertPlainName(name);
  const walk = await openPinnedDir(rootReal, components);
  if (walk.kind === 'refused') return refuse(walk.detail);
  const dir = walk.dir;
  try {
    return await writeInPinnedDir(dir, name, data);
  } finally {
    await dir.handle.close();
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

async function writeInPinnedDir(dir: PinnedDir, name: string, data: string | Buffer): Promise<SafeWrite> {
  const temp = `.${name}.${randomBytes(8).toString('hex')}.tmp`;
  const written = await writeTemp(dir, temp, data);
  if (written.kind === 'refused') return written;
  try {
    await rename(dir.at(temp), dir.at(name));
  } catch (error) {
    // best-effort: the temp name is ours and random; the rename error is what is returned
    await unlink(dir.at(temp)).catch(() => undefined);
    return refuse(`rename failed (${errnoCode(error)})`);
  }
  // expected: a target gone after the rename is refused below
  const placed = await lstat(dir.at(name), { bigint: true }).catch(() => undefined);
  if (placed === undefined || placed.ino !== written.ino || placed.dev !== written.dev) return refuse('target changed after rename');
  if (!(await isPinnedDirInPlace(dir))) return refuse('directory moved or removed during the write');
  const target = dir.path === '/' ? `/${name}` : `${dir.path}/${name}`;
  return { kind: 'ok', path: target };
}

type TempWritten = { kind: 'ok'; dev: bigint; ino: bigint } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

async function writeTemp(dir: PinnedDir, temp: string, data: string | Buffer): Promise<TempWritten> {
  let handle: FileHandle;
  try {
    handle = await open(dir.at(temp), TEMP_FLAGS, TEMP_MODE);
  } catch (error) {
    return refuse(`cannot create temp file (${errnoCode(error)})`);
  }
  let result: TempWritten;
  try {
    if (dir.handTo !== undefined) await handle.chown(dir.handTo.uid, dir.handTo.gid); // before any byte: the agent reads and removes it
    result = await fillTemp(handle, dir, data);
  } catch (error) {
    result = refuse(`write failed (${errnoCode(error)})`);
  } finally {
    await handle.close();
  }
  // best-effort: the refused temp file is ours; the refusal is what is returned
  if (result.kind === 'refused') await unlink(dir.at(temp)).catch(() => undefined);
  return result;
}

async function fillTemp(handle: FileHandle, dir: PinnedDir, data: string | Buffer): Promise<TempWritten> {
  const st = await handle.stat({ bigint: true });
  if (!st.isFile() || st.nlink !== 1n || st.dev !== dir.dev) return refuse('temp file is not a fresh regular file');
  await handle.writeFile(data);
  await handle.datasync();
  return { kind: 'ok', dev: st.dev, ino: st.ino };
}
