import { showValue } from './show-value';
import { TestKitError } from './test-kit-error';

/** A lib's error class (`RunnerError`, `EngineError`, …): the kit imports no lib, so specs pass it in. */
export type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function caughtAs<E extends Error>(type: ErrorClass<E>, error: unknown): E {
  if (error instanceof type) return error;
  throw new TestKitError('wrong_error', `expected a ${type.name}, got ${showValue(error)}`, { cause: error });
}

function notRefused(type: ErrorClass<Error>, value: unknown): TestKitError {
  return new TestKitError('not_refused', `expected a ${type.name}, but it returned ${showValue(value)}`);
}

function settleSync<E extends Error>(
  type: ErrorClass<E>,
  run: () => unknown,
): { kind: 'returned'; value: unknown } | { kind: 'refused'; error: E } {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    return { kind: 'refused', error: caughtAs(type, error) };
  }
  if (isThenable(value)) {
    throw new TestKitError('promise_from_sync', `the function returned a promise: pass the promise itself to wait for its ${type.name}`);
  }
  return { kind: 'returned', value };
}

async function settleAsync<E extends Error>(
  type: ErrorClass<E>,
  run: PromiseLike<unknown>,
): Promise<{ kind: 'returned'; value: unknown } | { kind: 'refused'; error: E }> {
  let value: unknown;
  try {
    value = await run;
  } catch (error) {
    return { kind: 'refused', error: caughtAs(type, error) };
  }
  return { kind: 'returned', value };
}

/**
 * The `type` error that `run` throws (a function) or rejects with (a promise). Throws `not_refused` when
 * it returns, `wrong_error` (the original as `cause`) when it throws anything else.
 */
export function refusal<E extends Error>(type: ErrorClass<E>, run: () => unknown): E;
export function refusal<E extends Error>(type: ErrorClass<E>, run: PromiseLike<unknown>): Promise<E>;
export function refusal<E extends Error>(type: ErrorClass<E>, run: (() => unknown) | PromiseLike<unknown>): E | Promise<E> {
  if (typeof run === 'function') {
    const out = settleSync(type, run);
    if (out.kind === 'returned') throw notRefused(type, out.value);
    return out.error;
  }
  return settleAsync(type, run).then((out) => {
    if (out.kind === 'returned') throw notRefused(type, out.value);
    return out.error;
  });
}

/**
 * The `code` of the `type` error that `run` throws or rejects with, or `undefined` when it returns (for
 * tables that mix accepted and refused rows). Anything else thrown is `wrong_error`.
 */
export function codeOf<E extends Error & { readonly code: unknown }>(type: ErrorClass<E>, run: () => unknown): E['code'] | undefined;
export function codeOf<E extends Error & { readonly code: unknown }>(
  type: ErrorClass<E>,
  run: PromiseLike<unknown>,
): Promise<E['code'] | undefined>;
export function codeOf<E extends Error & { readonly code: unknown }>(
  type: ErrorClass<E>,
  run: (() => unknown) | PromiseLike<unknown>,
): E['code'] | undefined | Promise<E['code'] | undefined> {
  if (typeof run === 'function') {
    const out = settleSync(type, run);
    return out.kind === 'refused' ? out.error.code : undefined;
  }
  return settleAsync(type, run).then((out) => (out.kind === 'refused' ? out.error.code : undefined));
}
