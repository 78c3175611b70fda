/**
 * One git operation at a time per host repository (a base, a mirror): two reads of one agent's work (an API
 * call and the git_changes watcher) would race on its index file and refs. A process-wide table because the
 * repositories are process-wide too; entries go as soon as their chain is idle.
 */
const chains = new Map<string, Promise<unknown>>();

export async function withGitLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(key) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const tail = next.catch(() => undefined); // expected: the chain only orders calls; each caller sees its own failure
  chains.set(key, tail);
  try {
    return await next;
  } finally {
    if (chains.get(key) === tail) chains.delete(key);
  }
}
