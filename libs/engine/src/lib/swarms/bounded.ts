/** Bounded concurrency for per-agent work of a whole swarm (stop, launch). */
import { availableParallelism } from 'node:os';

/**
 * Agents stopped at once by a swarm stop. Stopping is mostly waiting for processes to exit (and for
 * tmux to answer), not CPU, so it runs well above the core count; the /proc scan is shared (runners).
 */
export const STOP_CONCURRENCY = 32;

/**
 * Agents launched at once by the whole engine (every swarm starting at that moment shares these slots: one
 * limit per swarm let four 1,000-agent swarms started together launch 16 at once, and the per-agent cost
 * grew 3× across the launch): a launch alternates file work, a spawn and waits (the child's exec, tmux's
 * answer), so a few per core overlap the waits without queueing spawns behind each other.
 */
export const LAUNCH_CONCURRENCY = Math.max(4, 2 * availableParallelism());

/**
 * Agents of one swarm start in flight at once, a launch slot each while they spawn (LAUNCH_CONCURRENCY), none while
 * a TUI client is waited for to show its ready screen (mostly seconds of polling its screen): eight ready waits
 * per launch slot overlap those waits without holding the slots.
 */
export const STARTING_CONCURRENCY = 8 * LAUNCH_CONCURRENCY;

/**
 * Agents planned (and their workspaces created) at once by a swarm start: a plan is a few realpath and
 * mkdir round trips to the thread pool plus in-memory checks, so a few in flight hide the round trips.
 */
export const PLAN_CONCURRENCY = 8;

/**
 * How long a bounded run may hold the event loop before it gives it a turn. A call that never waits for I/O (a
 * mock agent's launch, work answered from memory) continues as microtasks, which run to the end before any I/O
 * callback: 10,000 of them kept an HTTP request waiting for seconds.
 */
export const BOUNDED_SLICE_MS = 10;

let sliceStart = performance.now();
/** The next turn every caller past the slice waits for (one for all: each resuming caller would start a slice of its own). */
let nextTurn: Promise<void> | undefined;

/** Resolves at once while the current slice lasts; after BOUNDED_SLICE_MS, on the event loop's next turn. */
async function yieldIfHeld(): Promise<void> {
  if (performance.now() - sliceStart < BOUNDED_SLICE_MS) return;
  nextTurn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      nextTurn = undefined;
      sliceStart = performance.now();
      resolve();
    }),
  );
  await nextTurn;
}

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
        await yieldIfHeld();
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}

/**
 * `items` reordered so consecutive items take turns between their lanes (`laneOf`), first seen lane first, each
 * lane's items in their own order: `[a1, a2, b1, b2]` → `[a1, b1, a2, b2]`. A bounded run over the result keeps every
 * lane busy at once instead of queueing all its slots on one (32 stops in flight all on one tmux server).
 */
export function interleaveByLane<T, K>(items: readonly T[], laneOf: (item: T) => K): T[] {
  const lanes = new Map<K, T[]>();
  for (const item of items) {
    const key = laneOf(item);
    const lane = lanes.get(key);
    if (lane === undefined) lanes.set(key, [item]);
    else lane.push(item);
  }
  const queues = [...lanes.values()];
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i++) for (const q of queues) if (i < q.length) out.push(q[i] as T);
  return out;
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight; the results come back in item order.
 * When calls fail, every started call settles first, then the failure of the lowest item index is
 * rethrown (the same one a one-by-one loop would have met first).
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let firstFailure: { index: number; error: unknown } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await yieldIfHeld();
        results[index] = await fn(items[index] as T);
      } catch (error) {
        if (firstFailure === undefined || index < firstFailure.index) firstFailure = { index, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (firstFailure !== undefined) throw firstFailure.error;
  return results;
}

/** A server-wide bound: at most `limit` calls of `run` in flight, the others wait in call order. */
export interface Limiter {
  run<R>(fn: () => Promise<R>): Promise<R>;
  /** Calls in flight now (tests, diagnostics). */
  inFlight(): number;
}

export function createLimiter(limit: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else active -= 1;
  };
  return {
    async run<R>(fn: () => Promise<R>): Promise<R> {
      if (active < limit) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over by release
      try {
        return await fn();
      } finally {
        release();
      }
    },
    inFlight: () => active,
  };
}
