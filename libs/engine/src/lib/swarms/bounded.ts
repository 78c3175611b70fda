/** Bounded concurrency for per-agent work of a whole swarm (stop, launch). */
import { availableParallelism } from 'node:os';

/**
 * Agents stopped at once by a swarm stop. Stopping is mostly waiting for processes to exit (and for
 * tmux to answer), not CPU, so it runs well above the core count; the /proc scan is shared (runners).
 */
export const STOP_CONCURRENCY = 32;

/**
 * Agents launched at once by a swarm start: a launch alternates file work, a spawn that blocks the main
 * thread for a few ms, and waits (the spawn event, tmux's answer), so a few per core overlap the waits
 * without queueing spawns behind each other. Agents are still registered in config order.
 */
export const LAUNCH_CONCURRENCY = Math.max(4, 2 * availableParallelism());

/**
 * Runs `fn` over `items` with at most `limit` calls in flight, in item order of start. Resolves when
 * all are done; the first rejection is rethrown after every started call settled.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}
