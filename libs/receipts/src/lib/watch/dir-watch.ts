import type { FSWatcher, watch as fsWatch } from 'node:fs';
import { isDirChainUnchanged, snapshotDirChain } from '../fs/dir-chain';

/**
 * Best-effort fs.watch on the turn directory, used only as a wake-up hint (nothing is ever read
 * through it). inotify follows links, so the chain is lstat'ed before, and re-checked after: if any
 * component is or became a link the watcher is closed at once. undefined = no watch (poll only).
 */
export async function attachDirWatch(
  chainPaths: readonly string[],
  turnDir: string,
  onWake: () => void,
  watch: typeof fsWatch,
): Promise<FSWatcher | undefined> {
  const before = snapshotDirChain(chainPaths);
  if (before.kind !== 'ok') return undefined;
  let watcher: FSWatcher;
  try {
    // persistent like the poll timer: a leaked watcher would be visible (and is tested for).
    watcher = watch(turnDir, { persistent: true }, () => onWake());
  } catch {
    // expected: no fs.watch here (the dir is gone, or no inotify): the caller keeps polling
    return undefined;
  }
  // Swallow errors until the owner installs its handler (an unhandled 'error' would crash the host).
  watcher.on('error', () => watcher.close());
  if (!isDirChainUnchanged(before.chain)) {
    watcher.close();
    return undefined;
  }
  return watcher;
}
