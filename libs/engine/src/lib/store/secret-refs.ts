/**
 * What the store writes to genswarms.db has every secret replaced by a reference `{"$secret": "<id>"}`
 * into the 0600 file store; reads put the values back. The secret positions are the ones `redactSecrets` masks
 * (a secret-named key at any depth, every value of a `config.env`), so what is shown redacted is never stored.
 * Only values at those positions are ever resolved: a `$secret` object elsewhere is plain data.
 */
import { isSecretKey } from '@genswarms/security';

type Rec = Record<string, unknown>;

/** The key of a reference object. */
export const SECRET_REF_KEY = '$secret';

/** Stores a secret value and answers its id / answers the value of an id. */
export interface SecretSink {
  put(value: unknown): string;
}
export interface SecretSource {
  get(id: string): { found: true; value: unknown } | { found: false };
}

function isRec(v: unknown): v is Rec {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setOwn(target: Rec, key: string, value: unknown): void {
  // defineProperty: a JSON key "__proto__" stays an own property instead of swapping the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `{$secret: id}` with nothing else, or undefined. */
function refId(v: unknown): string | undefined {
  if (!isRec(v)) return undefined;
  const keys = Object.keys(v);
  const id = v[SECRET_REF_KEY];
  return keys.length === 1 && typeof id === 'string' ? id : undefined;
}

/** What to do with a value at a secret position: store it (write) or look it up (read). */
type AtSecret = (value: unknown) => { keep: true; value: unknown } | { keep: false };

/** Where secrets are: the key-name rule everywhere, plus keys an object handler declares secret inside a `config`. */
export interface SecretPositions {
  /** A key of a `config` object that some handler's `configSchema` marks `secret: true` (e.g. `dsn`). */
  readonly isConfigSecretKey?: (key: string) => boolean;
}

function walk(value: unknown, atSecret: AtSecret, where: SecretPositions): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, atSecret, where));
  if (!isRec(value)) return value;
  const out: Rec = {};
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (isSecretKey(key)) {
      const r = atSecret(child);
      if (r.keep) setOwn(out, key, r.value);
    } else if (key === 'config' && isRec(child)) {
      setOwn(out, key, walkConfig(child, atSecret, where));
    } else setOwn(out, key, walk(child, atSecret, where));
  }
  return out;
}

/**
 * A `config` object: its handler-secret keys, each value of its own `env` (the whole `env` when not a map — stored as one
 * reference, which no env map can look like: `$` is not in the env-name grammar), the rest as any object.
 */
function walkConfig(config: Rec, atSecret: AtSecret, where: SecretPositions): unknown {
  const out: Rec = {};
  for (const key of Object.keys(config)) {
    const child = config[key];
    if (isSecretKey(key) || where.isConfigSecretKey?.(key) === true || (key === 'env' && (!isRec(child) || refId(child) !== undefined))) {
      const r = atSecret(child);
      if (r.keep) setOwn(out, key, r.value);
    } else if (key === 'env' && isRec(child)) {
      setOwn(out, key, walkEnv(child, atSecret));
    } else if (key === 'config' && isRec(child)) {
      setOwn(out, key, walkConfig(child, atSecret, where));
    } else setOwn(out, key, walk(child, atSecret, where));
  }
  return out;
}

function walkEnv(env: Rec, atSecret: AtSecret): Rec {
  const out: Rec = {};
  for (const name of Object.keys(env)) {
    const r = atSecret(env[name]);
    if (r.keep) setOwn(out, name, r.value);
  }
  return out;
}

/** A deep copy of `value` with every secret stored through `sink` and replaced by its reference. */
export function externalizeSecrets(value: unknown, sink: SecretSink, where: SecretPositions = {}): unknown {
  return walk(value, (v) => (v === undefined ? { keep: true, value: v } : { keep: true, value: { [SECRET_REF_KEY]: sink.put(v) } }), where);
}

/**
 * A deep copy of `value` with every reference at a secret position replaced by its value. A reference whose
 * value is gone is dropped (fail-closed: the agent starts without it, never with the reference as a key).
 * A plain value at a secret position (a row written before secrets left the database) is kept as it is.
 */
export function resolveSecrets(value: unknown, source: SecretSource, where: SecretPositions = {}): unknown {
  return walk(
    value,
    (v) => {
      const id = refId(v);
      if (id === undefined) return { keep: true, value: v };
      const r = source.get(id);
      return r.found ? { keep: true, value: r.value } : { keep: false };
    },
    where,
  );
}
