import type { FSWatcher, watch as fsWatch } from 'node:fs';
import { isDirChainUnchanged, snapshotDirChain } from '../fs/dir-chain';
import { DONE_FILE, REPLY_FILE } from '../turn/turn-paths';

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
    watcher = watch(turnDir, { persistent: true }, (_event, name) => {
      if (isReceiptName(name)) onWake();
    });
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

/**
 * A client's temp file costs 3–4 inotify events (create, modify, close, rename away) before the
 * rename that matters, and each woke a full attempt (~10 per turn). Only an event naming a receipt file —
 * or naming nothing (a platform without names, an overflow) — wakes the watcher; the poll stays the fallback.
 */
export function isReceiptName(name: string | Buffer | null | undefined): boolean {
  if (name === null || name === undefined) return true;
  const text = typeof name === 'string' ? name : name.toString('utf8');
  return text === DONE_FILE || text === REPLY_FILE;
}
