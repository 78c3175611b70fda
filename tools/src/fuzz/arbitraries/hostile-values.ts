import fc from 'fast-check';

/** Keys that poison prototypes or confuse lookups when a parser or a map forgets a null prototype. */
export const HOSTILE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'a\u0000b',
  '..',
  '*',
  '$ref',
  '\u202e',
];

/** Numbers at the edges: unsafe integers, overflow to Infinity in JSON text, denormals, -0, NaN. */
export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  2 ** 31,
  2 ** 32 + 1,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

/** Strings operators never write but attackers do: NUL, traversal, huge, control and bidi characters. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  'a\u0000b',
  '../../etc/passwd',
  '/etc/shadow',
  '*',
  '%2e%2e%2f',
  '\r\n\r\n',
  '\u001b[2J',
  '$(id)',
  '`id`',
  'x'.repeat(65),
  'x'.repeat(70_000),
  '\ud800',
  '\u202e',
];

/** An array or object nested `depth` deep (built iteratively: the generator itself never recurses). */
export function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** Any value a hostile client could put at a key: typed edges, deep nesting, hostile keys, anything. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 500 }), fc.boolean()).map(([d, a]) => nested(d, a)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_KEYS), fc.jsonValue())
      .map(([k, v]) => Object.defineProperty({}, k, { value: v, enumerable: true, writable: true, configurable: true })),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true, withBoxedValues: true }) },
);
