import { constants as fsc, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { assertArgv } from '../argv/validate-argv';
import { RunnerError } from '../errors/runner-error';
import { assertDescriptorPath, ensurePrivateDir, ownUid, removeFileIfPresent } from '../state/state-dir';

/** Cap on `-s` (bytes, NULs included): one exec of at most 128 KiB, never a split (docs/runners.md). */
export const XARGS_MAX_BYTES = 131072;
/** Launch ids name manifest files: `<launch-id>.argv`. */
export const LAUNCH_ID_RE = /^[a-z0-9_-]{1,64}$/;

/** `<home>/manifests/<swarm>/<agent>` (0700). */
export function manifestDirFor(home: string, swarm: string, agent: string): string {
  return path.join(home, 'manifests', swarm, agent);
}

/**
 * `count` = the exact word count; `size` = Σ(byte length + 1) over `entry` and all words.
 * Over XARGS_MAX_BYTES → `launch_too_large` (refuse; never split or truncate).
 */
export function computeManifestBudget(entry: string, words: readonly string[]): { count: number; size: number } {
  let size = Buffer.byteLength(entry, 'utf8') + 1;
  for (const word of words) size += Buffer.byteLength(word, 'utf8') + 1;
  if (size > XARGS_MAX_BYTES) {
    throw new RunnerError('launch_too_large', `launch vector is ${size} bytes; the cap is ${XARGS_MAX_BYTES}`, {
      details: { size, max: XARGS_MAX_BYTES, count: words.length },
    });
  }
  return { count: words.length, size };
}

/**
 * Write `<dir>/<launchId>.argv`: every word followed by one NUL. The directory is created 0700 and
 * verified by fstat; the file is created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW, 0600), then made 0400.
 */
export async function writeArgvManifest(
  dir: string,
  launchId: string,
  words: readonly string[],
  uid: number = ownUid(),
): Promise<{ path: string; count: number }> {
  assertArgv(words);
  if (!LAUNCH_ID_RE.test(launchId)) throw new RunnerError('invalid_argv', 'launch id must match ^[a-z0-9_-]{1,64}$');
  await ensurePrivateDir(dir, uid);
  const file = path.join(dir, `${launchId}.argv`);
  const body = Buffer.concat(words.map((w) => Buffer.from(`${w}\0`, 'utf8')));
  const handle = await fsp.open(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    await assertDescriptorPath(handle, file);
    await handle.chmod(0o600);
    await handle.writeFile(body);
    await handle.chmod(0o400);
  } finally {
    await handle.close();
  }
  return { path: file, count: words.length };
}

/** Remove a manifest when its session stops (absent is fine). */
export async function removeArgvManifest(file: string): Promise<void> {
  await removeFileIfPresent(file);
}

/**
 * `[xargs, -0, -r, -x, -n, N, -s, S, -a, manifest, --, entry]`: with `-n` = the exact count and `-x`,
 * GNU xargs runs `entry` once with every word, or not at all. `-a` keeps the command's stdin.
 */
export function buildXargsArgv(xargs: string, manifestPath: string, entry: string, words: readonly string[]): readonly string[] {
  assertArgv(words);
  if (!path.isAbsolute(xargs) || !path.isAbsolute(entry) || !path.isAbsolute(manifestPath)) {
    throw new RunnerError('invalid_argv', 'xargs, its manifest and its entry must be absolute paths');
  }
  const { count, size } = computeManifestBudget(entry, words);
  return [xargs, '-0', '-r', '-x', '-n', String(count), '-s', String(size), '-a', manifestPath, '--', entry];
}
