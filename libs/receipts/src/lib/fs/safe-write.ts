import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirIdentity } from './dir-chain';
import { isDirChainUnchanged, isErrno, snapshotDirChain } from './dir-chain';
import { isDescriptorAt } from './bounded-reader';
import { assertPlainName, assertRealPathForm } from './path-rules';

/** Temp files are exclusive, never follow a planted link, and are private (libuv adds O_CLOEXEC). */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const TEMP_MODE = 0o600;
const DIR_MODE = 0o700;

export type SafeWrite = { kind: 'ok'; path: string } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

/**
 * CONTRACT §14.2: writes `<dirPath>/<name>` atomically. dirPath (an absolute real path whose parent is
 * trusted) must be a real directory, created 0700 if missing; the data goes to an O_EXCL|O_NOFOLLOW temp
 * file verified through /proc/self/fd, then renamed over `name` (rename replaces a planted link, never
 * follows it). Any doubt → `{kind:'refused', reason:'inbox_unsafe'}`. Throws only for a bad path/name.
 */
export async function writeFileSafely(dirPath: string, name: string, data: string | Buffer): Promise<SafeWrite> {
  assertRealPathForm(dirPath, 'dirPath');
  assertPlainName(name);
  const dir = await ensureDir(dirPath);
  if (dir.kind === 'refused') return dir;
  const tempPath = join(dirPath, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  const written = await writeTemp(dir.identity, tempPath, data);
  if (written.kind === 'refused') return written;
  const target = join(dirPath, name);
  if (!(await isDirChainUnchanged([dir.identity]))) return refuse('directory replaced before rename');
  try {
    await rename(tempPath, target);
  } catch (error) {
    await removeTemp(dir.identity, tempPath);
    return refuse(`rename failed (${errnoCode(error)})`);
  }
  const placed = await lstat(target, { bigint: true }).catch(() => undefined);
  if (placed === undefined || placed.ino !== written.ino || placed.dev !== written.dev || !(await isDirChainUnchanged([dir.identity]))) {
    return refuse('target changed after rename');
  }
  return { kind: 'ok', path: target };
}

type DirReady = { kind: 'ok'; identity: DirIdentity } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

async function ensureDir(dirPath: string): Promise<DirReady> {
  let snap = await snapshotDirChain([dirPath]);
  if (snap.kind === 'missing') {
    try {
      await mkdir(dirPath, { mode: DIR_MODE });
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) return refuse(`cannot create directory (${errnoCode(error)})`);
    }
    snap = await snapshotDirChain([dirPath]);
  }
  if (snap.kind === 'missing') return refuse('directory vanished');
  if (snap.kind === 'refused') return refuse(snap.reason === 'receipt_symlink' ? 'directory is a symlink' : 'not a directory');
  const identity = snap.chain[0];
  return identity === undefined ? refuse('directory vanished') : { kind: 'ok', identity };
}

type TempWritten = { kind: 'ok'; dev: bigint; ino: bigint } | { kind: 'refused'; reason: 'inbox_unsafe'; detail: string };

async function writeTemp(dir: DirIdentity, tempPath: string, data: string | Buffer): Promise<TempWritten> {
  let handle: FileHandle;
  try {
    handle = await open(tempPath, TEMP_FLAGS, TEMP_MODE);
  } catch (error) {
    return refuse(`cannot create temp file (${errnoCode(error)})`);
  }
  let result: TempWritten;
  try {
    result = await fillTemp(handle, dir, tempPath, data);
  } catch (error) {
    result = refuse(`write failed (${errnoCode(error)})`);
  } finally {
    await handle.close();
  }
  if (result.kind === 'refused') await removeTemp(dir, tempPath);
  return result;
}

async function fillTemp(handle: FileHandle, dir: DirIdentity, tempPath: string, data: string | Buffer): Promise<TempWritten> {
  const st = await handle.stat({ bigint: true });
  if (!st.isFile() || st.nlink !== 1n || st.dev !== dir.dev) return refuse('temp file is not a fresh regular file');
  if (!(await isDescriptorAt(handle.fd, tempPath))) return refuse('temp file is not where it was created');
  await handle.writeFile(data);
  await handle.datasync();
  return { kind: 'ok', dev: st.dev, ino: st.ino };
}

/** Removes our temp file, but only while the directory is still the one we created it in. */
async function removeTemp(dir: DirIdentity, tempPath: string): Promise<void> {
  if (!(await isDirChainUnchanged([dir]))) return;
  await unlink(tempPath).catch(() => undefined);
}

function refuse(detail: string): { kind: 'refused'; reason: 'inbox_unsafe'; detail: string } {
  return { kind: 'refused', reason: 'inbox_unsafe', detail };
}

function errnoCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'unknown';
}
