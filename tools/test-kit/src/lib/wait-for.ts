import { setTimeout as sleep } from 'node:timers/promises';
import { showValue } from './show-value';
import { TestKitError } from './test-kit-error';

/** Default deadline of one wait, in ms: a loaded 2-core box starts a bwrap'd client in seconds, not tens. */
export const WAIT_FOR_TIMEOUT_MS = 20_000;
/** Default pause between two probes, in ms. */
export const WAIT_FOR_INTERVAL_MS = 25;

export interface WaitForOptions {
  /** Give up (and throw `timed_out`) once this many ms have passed; finite, > 0. */
  readonly timeoutMs?: number;
  /** Pause between probes in ms; finite, >= 0. */
  readonly intervalMs?: number;
}

/** With `until`, the wait is over when `until(value)` holds, and a timeout shows the probe's real last value. */
export interface WaitForUntilOptions<T> extends WaitForOptions {
  readonly until: (value: T) => boolean;
}

/** What a probe returns once the wait is over: anything but `undefined`, `null` and `false`. */
export type Settled<T> = Exclude<T, undefined | null | false>;

function isSettled<T>(value: T): value is Settled<T> {
  return value !== undefined && value !== null && value !== false;
}

function checkedOption(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new TestKitError('invalid_option', `waitFor: ${name} must be a finite number >= ${min}, got ${showValue(value)}`);
  }
  return value;
}

/**
 * Polls `probe` until it returns a value other than `undefined`, `null` or `false` (or, with `until`, a
 * value `until` accepts), and resolves to that value. Past the deadline it throws `timed_out`, naming
 * `what` (a function is called only then, so it can add logs) and the last value seen. The probe always
 * runs once more after the deadline. A probe that throws ends the wait with its error: catch inside the
 * probe what is expected while a process starts.
 */
export function waitFor<T>(probe: () => T | PromiseLike<T>, what: string | (() => string), options: WaitForUntilOptions<T>): Promise<T>;
export function waitFor<T>(probe: () => T | PromiseLike<T>, what: string | (() => string), options?: WaitForOptions): Promise<Settled<T>>;
export async function waitFor<T>(
  probe: () => T | PromiseLike<T>,
  what: string | (() => string),
  options: WaitForOptions & { readonly until?: (value: T) => boolean } = {},
): Promise<T> {
  const done = options.until ?? isSettled;
  const timeoutMs = checkedOption('timeoutMs', options.timeoutMs ?? WAIT_FOR_TIMEOUT_MS, Number.MIN_VALUE);
  const intervalMs = checkedOption('intervalMs', options.intervalMs ?? WAIT_FOR_INTERVAL_MS, 0);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    const left = deadline - Date.now();
    if (left < 0) {
      const name = typeof what === 'function' ? what() : what;
      throw new TestKitError('timed_out', `timed out after ${timeoutMs} ms waiting for ${name}; last value: ${showValue(value)}`);
    }
    await sleep(Math.min(intervalMs, left + 1));
  }
}
