/**
 * Small strict validators for the agent's untrusted JSON (inbox items, its state file, mock scripts, LLM
 * responses). The agent runs inside sandboxes that bind only its own dist directory, so it cannot load
 * zod: these mirror the zod schemas they replaced (exact key sets, types, regexes, bounds) with node only.
 * A validator never throws: `validate` turns any exception (a hostile getter, a Proxy) into `invalid`.
 */

export type Validation<T> = { kind: 'ok'; value: T } | { kind: 'invalid'; path: string; reason: string };
export type Validator<T> = (value: unknown, path: string) => Validation<T>;
export type Infer<V> = V extends Validator<infer T> ? T : never;

const ok = <T>(value: T): Validation<T> => ({ kind: 'ok', value });
const bad = (path: string, reason: string): { kind: 'invalid'; path: string; reason: string } => ({ kind: 'invalid', path, reason });

/** Runs `validator` on `value` at the root; exceptions become `invalid` (never thrown to the caller). */
export function validate<T>(validator: Validator<T>, value: unknown): Validation<T> {
  try {
    return validator(value, '');
  } catch {
    // expected: a value that makes a validator throw is refused
    return bad('', 'unreadable value');
  }
}

/** `path: reason` for logs and error receipts (`(root)` for the top level). Never includes the value. */
export function describeInvalid(result: { path: string; reason: string }): string {
  return `${result.path === '' ? '(root)' : result.path}: ${result.reason}`;
}

export function string(opts: { pattern?: RegExp; maxLength?: number } = {}): Validator<string> {
  return (value, path) => {
    if (typeof value !== 'string') return bad(path, 'expected a string');
    if (opts.maxLength !== undefined && value.length > opts.maxLength) return bad(path, `longer than ${opts.maxLength} characters`);
    if (opts.pattern !== undefined && !opts.pattern.test(value)) return bad(path, 'does not match the required pattern');
    return ok(value);
  };
}

/** A safe integer within [min, max] (default: non-negative). NaN, Infinity, fractions and numeric strings fail. */
export function integer(opts: { min?: number; max?: number } = {}): Validator<number> {
  const min = opts.min ?? 0;
  const max = opts.max ?? Number.MAX_SAFE_INTEGER;
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return bad(path, 'expected an integer');
    if (value < min || value > max) return bad(path, `expected an integer in [${min}, ${max}]`);
    return ok(value);
  };
}

export function literal<const L extends string | number | boolean>(expected: L): Validator<L> {
  return (value, path) => (value === expected ? ok(expected) : bad(path, `expected ${JSON.stringify(expected)}`));
}

/** The first alternative that accepts the value; otherwise the reasons of all alternatives. */
export function oneOf<A, B>(first: Validator<A>, second: Validator<B>): Validator<A | B> {
  return (value, path) => {
    const a = first(value, path);
    if (a.kind === 'ok') return a;
    const b = second(value, path);
    if (b.kind === 'ok') return b;
    return bad(path, `${a.reason}, or ${b.reason}`);
  };
}

/** Accepts `undefined` (an absent key) besides what `inner` accepts. */
export function optional<T>(inner: Validator<T>): Validator<T | undefined> {
  return (value, path) => (value === undefined ? ok(undefined) : inner(value, path));
}

export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  return (value, path) => (value === null ? ok(null) : inner(value, path));
}

/** An array whose length is in [min, max] (checked before any item), every item valid. */
export function arrayOf<T>(item: Validator<T>, opts: { min?: number; max?: number } = {}): Validator<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) return bad(path, 'expected an array');
    if (opts.max !== undefined && value.length > opts.max) return bad(path, `more than ${opts.max} items`);
    if (opts.min !== undefined && value.length < opts.min) return bad(path, `fewer than ${opts.min} items`);
    const out: T[] = [];
    for (let i = 0; i < value.length; i += 1) {
      const checked = item(value[i] as unknown, join(path, String(i)));
      if (checked.kind === 'invalid') return checked;
      out.push(checked.value);
    }
    return ok(out);
  };
}

type Shape = Readonly<Record<string, Validator<unknown>>>;
type ShapeOutput<S extends Shape> = { [K in keyof S]: Infer<S[K]> };

/**
 * A plain object (prototype Object.prototype or null). `strict`: every own key must be in `shape`
 * (an own `__proto__` from JSON.parse is an unknown key); `loose`: extra keys are ignored (third-party
 * responses). Only own properties are read, so nothing is taken from a prototype. The result is a
 * fresh null-prototype object holding only the shape's keys.
 */
export function object<S extends Shape>(shape: S, mode: 'strict' | 'loose'): Validator<ShapeOutput<S>> {
  const known = Object.keys(shape);
  return (value, path) => {
    if (!isPlainObject(value)) return bad(path, 'expected an object');
    if (mode === 'strict') {
      const unknown = Object.keys(value).find((key) => !Object.prototype.hasOwnProperty.call(shape, key));
      if (unknown !== undefined) return bad(join(path, unknown), 'unknown key');
    }
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of known) {
      const own = Object.prototype.hasOwnProperty.call(value, key);
      const checked = (shape[key] as Validator<unknown>)(own ? value[key] : undefined, join(path, key));
      if (checked.kind === 'invalid') return own ? checked : bad(join(path, key), 'required');
      if (own) out[key] = checked.value;
    }
    return ok(out as ShapeOutput<S>);
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
