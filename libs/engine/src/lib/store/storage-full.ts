/**
 * Disk full: a store write the disk had no room for (SQLite `SQLITE_FULL`, `ENOSPC`/`EDQUOT` from
 * the secret files) is refused as `storage_full` (HTTP 507), never as a 500; nothing was written, so the
 * caller may retry. One episode per outage: its first refusal is reported once (`onFull`), and the first
 * write that succeeds afterwards ends it (`onRecovered`, with the count of refused writes).
 */
import { EngineError } from '../errors/engine-error';
import type { Store } from './store';

/** Error codes that mean "no room left" (SQLite's, then the errno of a file write). */
const FULL_CODES: ReadonlySet<string> = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** Methods that write whenever they succeed; a success of one of these ends an episode. */
const ALWAYS_WRITES: ReadonlySet<string> = new Set([
  'insertEvent',
  'upsertSwarm',
  'upsertSession',
  'appendMessage',
  'appendOverlayEvent',
  'saveObjectState',
]);
/** Methods that wrote when their answer says so (a dispatched turn, an enqueued item, a finished turn). */
const WROTE_IF: ReadonlyMap<string, (result: unknown) => boolean> = new Map([
  ['dispatchNext', (r: unknown) => r !== null],
  ['enqueue', (r: unknown) => (r as { kind?: unknown } | null)?.kind === 'ok'],
  ['finishTurn', (r: unknown) => r === true],
]);

/** Whether `error` (or the error it wraps) says the disk or quota is full. */
export function isStorageFullError(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (FULL_CODES.has(code) || code === 'storage_full')) return true;
  }
  return false;
}

/** An outage as reported: when it started, the store method that was refused first, how many writes were refused. */
export interface StorageEpisode {
  readonly since: string;
  readonly firstOperation: string;
  readonly refusedWrites: number;
}

export interface StorageWatch {
  /** The first refusal of an outage (called once per episode). */
  onFull(episode: StorageEpisode): void;
  /** The first successful write after it. */
  onRecovered(episode: StorageEpisode): void;
  now(): string;
}

/** Tracks the outage episodes of one store. */
class StorageEpisodes {
  private current: { since: string; firstOperation: string; refused: number } | null = null;

  constructor(private readonly watch: StorageWatch) {}

  refused(operation: string): void {
    if (this.current !== null) {
      this.current.refused += 1;
      return;
    }
    this.current = { since: this.watch.now(), firstOperation: operation, refused: 1 };
    this.watch.onFull({ since: this.current.since, firstOperation: operation, refusedWrites: 1 });
  }

  wrote(): void {
    const ended = this.current;
    if (ended === null) return;
    this.current = null; // before the report: the report's own event write must not end it twice
    this.watch.onRecovered({ since: ended.since, firstOperation: ended.firstOperation, refusedWrites: ended.refused });
  }
}

function storageFull(operation: string, cause: unknown): EngineError {
  return new EngineError(
    'storage_full',
    'The server has no room left to store this (disk or quota full under GENSWARMS_HOME); nothing was written, retry once space is freed.',
    { operation },
    { cause },
  );
}

/**
 * `store` with every refusal for lack of space turned into EngineError `storage_full`, and the outages reported
 * through `watch`. Other errors pass through unchanged.
 */
export function guardStorage<S extends Store>(store: S, watch: StorageWatch): S {
  const episodes = new StorageEpisodes(watch);
  // One wrapper per method, made on first use (the store is on every hot path: no closure per call).
  const wrapped = new Map<string, { readonly of: unknown; readonly fn: unknown }>();
  return new Proxy(store, {
    get(target, prop, receiver): unknown {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'constructor') return value;
      const known = wrapped.get(prop);
      if (known?.of === value) return known.fn;
      const method = value as (...args: unknown[]) => unknown;
      const fn = (...args: unknown[]): unknown => {
        const out = method.apply(target, args);
        if (!(out instanceof Promise)) return out;
        return out.then(
          (result: unknown) => {
            if (ALWAYS_WRITES.has(prop) || WROTE_IF.get(prop)?.(result) === true) episodes.wrote();
            return result;
          },
          (error: unknown) => {
            if (!isStorageFullError(error)) throw error;
            episodes.refused(prop);
            throw error instanceof EngineError ? error : storageFull(prop, error);
          },
        );
      };
      wrapped.set(prop, { of: value, fn });
      return fn;
    },
  });
}
