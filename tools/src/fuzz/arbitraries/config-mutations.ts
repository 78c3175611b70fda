import fc from 'fast-check';
import { HOSTILE_KEYS, hostileValue, nested } from './hostile-values';

type Path = ReadonlyArray<string | number>;
/** Paths deeper than this are not listed: a buried value is edited as a whole. */
const PATHS_MAX_DEPTH = 12;

/** One key-level edit of a config: replace a value, delete a key, add a (hostile) key, or bury a value deep. */
export type ConfigMutation =
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'bury'; at: number; depth: number };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Every path into the value down to PATHS_MAX_DEPTH (deeper, buried parts are edited as one value). */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (prefix.length >= PATHS_MAX_DEPTH) return out;
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (isPlainObject(value)) for (const k of Object.keys(value)) pathsOf((value as Record<string, unknown>)[k], [...prefix, k], out);
  return out;
}

/** Sets an own data property (even `__proto__`); a frozen or boxed target is left as it is. */
function defineKey(target: object, key: string | number, value: unknown): void {
  if (!Object.isExtensible(target) || Object.getOwnPropertyDescriptor(target, key)?.configurable === false) return;
  Object.defineProperty(target, key, { value: cloneOf(value), enumerable: true, writable: true, configurable: true });
}

/** A copy of a generated value: fast-check reuses generated values while shrinking, so they are never edited in place. */
function cloneOf(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    // expected: a value structuredClone cannot copy is inserted as it is (it is never edited later: paths stop at it)
    return value;
  }
}

function parentOf(root: unknown, path: Path): { parent: Record<string | number, unknown>; key: string | number } | null {
  if (path.length === 0) return null;
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  return { parent: node, key: path[path.length - 1] as string | number };
}

function applyOne(root: unknown, m: ConfigMutation): unknown {
  const paths = pathsOf(root);
  const path = paths[m.at % paths.length] as Path;
  const slot = parentOf(root, path);
  const current = slot === null ? root : slot.parent[slot.key];
  if (m.kind === 'add') {
    if (isPlainObject(current)) defineKey(current, m.key, m.value);
    return root;
  }
  const replacement = m.kind === 'set' ? m.value : m.kind === 'bury' ? nested(m.depth, false) : undefined;
  if (slot === null) return m.kind === 'delete' ? {} : cloneOf(replacement);
  if (m.kind === 'delete' && Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
  else if (m.kind === 'delete') Reflect.deleteProperty(slot.parent, slot.key);
  else defineKey(slot.parent, slot.key, replacement);
  return root;
}

/** Applies the edits in order to a deep copy of `seed` (the seed itself is never changed). */
export function mutateConfig(seed: unknown, mutations: readonly ConfigMutation[]): unknown {
  let root = structuredClone(seed);
  for (const m of mutations) root = applyOne(root, m);
  return root;
}

const mutation: fc.Arbitrary<ConfigMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 12 })),
      value: hostileValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bury' as const), at: fc.nat(), depth: fc.integer({ min: 1, max: 200 }) }) },
);

/** A valid seed config mutated key by key (1–4 edits). */
export function mutatedConfig(seeds: ReadonlyArray<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([seed, edits]) => mutateConfig(seed, edits));
}
