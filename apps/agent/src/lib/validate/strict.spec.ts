import { arrayOf, describeInvalid, integer, literal, nullable, object, oneOf, optional, string, validate } from './strict';
import type { Validator } from './strict';

const reasonOf = <T>(validator: Validator<T>, value: unknown): string => {
  const result = validate(validator, value);
  return result.kind === 'ok' ? 'ok' : describeInvalid(result);
};

describe('string', () => {
  test.each<[string, unknown, string]>([
    ['a string', 'x', 'ok'],
    ['the empty string', '', 'ok'],
    ['a number', 1, '(root): expected a string'],
    ['null', null, '(root): expected a string'],
    ['undefined', undefined, '(root): expected a string'],
    ['a String object', new String('x'), '(root): expected a string'],
    ['an array of one string', ['x'], '(root): expected a string'],
    ['a Buffer', Buffer.from('x'), '(root): expected a string'],
  ])('%s → %s', (_name, value, expected) => {
    expect(reasonOf(string(), value)).toBe(expected);
  });

  test.each<[string, string]>([
    ['../../etc', '(root): does not match the required pattern'],
    ['ok-id\n', '(root): does not match the required pattern'],
    ['ok\0', '(root): does not match the required pattern'],
    ['$(id)', '(root): does not match the required pattern'],
    ['a'.repeat(65), '(root): longer than 64 characters'],
    ['turn_1-a', 'ok'],
  ])('pattern and bound: %j → %s', (value, expected) => {
    expect(reasonOf(string({ pattern: /^[a-z0-9_-]{1,64}$/, maxLength: 64 }), value)).toBe(expected);
  });
});

describe('integer (default: non-negative safe integer)', () => {
  test.each<[string, unknown, string]>([
    ['zero', 0, 'ok'],
    ['a large safe integer', Number.MAX_SAFE_INTEGER, 'ok'],
    ['a negative', -1, '(root): expected an integer in [0, 9007199254740991]'],
    ['a fraction', 1.5, '(root): expected an integer'],
    ['NaN', NaN, '(root): expected an integer'],
    ['Infinity', Infinity, '(root): expected an integer'],
    ['beyond 2^53', 2 ** 53, '(root): expected an integer'],
    ['a digit string', '1', '(root): expected an integer'],
    ['a bigint', 1n, '(root): expected an integer'],
    ['a boolean', true, '(root): expected an integer'],
    ['a Number object', new Number(1), '(root): expected an integer'],
  ])('%s → %s', (_name, value, expected) => {
    expect(reasonOf(integer(), value)).toBe(expected);
  });
});

describe('literal, oneOf, optional, nullable', () => {
  test.each<[string, Validator<unknown>, unknown, string]>([
    ['literal match', literal(1), 1, 'ok'],
    ['literal, string form', literal(1), '1', '(root): expected 1'],
    ['literal, true', literal(1), true, '(root): expected 1'],
    ['oneOf first', oneOf(integer(), string({ pattern: /^[0-9]+$/ })), 3, 'ok'],
    ['oneOf second', oneOf(integer(), string({ pattern: /^[0-9]+$/ })), '3', 'ok'],
    [
      'oneOf neither',
      oneOf(integer(), string({ pattern: /^[0-9]+$/ })),
      '3x',
      '(root): expected an integer, or does not match the required pattern',
    ],
    ['optional absent', optional(string()), undefined, 'ok'],
    ['optional null', optional(string()), null, '(root): expected a string'],
    ['nullable null', nullable(string()), null, 'ok'],
    ['nullable undefined', nullable(string()), undefined, '(root): expected a string'],
  ])('%s', (_name, validator, value, expected) => {
    expect(reasonOf(validator, value)).toBe(expected);
  });
});

describe('arrayOf', () => {
  const list = arrayOf(integer(), { min: 1, max: 3 });
  test.each<[string, unknown, string]>([
    ['within bounds', [1, 2], 'ok'],
    ['empty', [], '(root): fewer than 1 items'],
    ['too long', [1, 2, 3, 4], '(root): more than 3 items'],
    ['a bad item, by index', [1, 'x'], '1: expected an integer'],
    ['an array-like object', { length: 1, 0: 1 }, '(root): expected an array'],
    ['a string', '[1]', '(root): expected an array'],
    ['a sparse array (hole = undefined)', [1, , 2], '1: expected an integer'], // eslint-disable-line no-sparse-arrays -- a hole is the hostile input
  ])('%s → %s', (_name, value, expected) => {
    expect(reasonOf(list, value)).toBe(expected);
  });

  it('checks the length before looking at any item', () => {
    let touched = 0;
    const spy: Validator<number> = (value) => {
      touched += 1;
      return { kind: 'ok', value: value as number };
    };
    expect(reasonOf(arrayOf(spy, { max: 2 }), new Array(1_000_000).fill(0))).toBe('(root): more than 2 items');
    expect(touched).toBe(0);
  });
});

describe('object', () => {
  const strict = object({ a: string(), n: optional(integer()) }, 'strict');
  const loose = object({ a: string() }, 'loose');

  test.each<[string, unknown, string]>([
    ['exact keys', { a: 'x', n: 1 }, 'ok'],
    ['optional key absent', { a: 'x' }, 'ok'],
    ['a missing required key', { n: 1 }, 'a: required'],
    ['an unknown key', { a: 'x', b: 1 }, 'b: unknown key'],
    ['an own __proto__ (JSON.parse)', JSON.parse('{"a":"x","__proto__":{"polluted":true}}'), '__proto__: unknown key'],
    ['a constructor key', JSON.parse('{"a":"x","constructor":{"prototype":{}}}'), 'constructor: unknown key'],
    ['a wrong type, by key', { a: 1 }, 'a: expected a string'],
    ['null', null, '(root): expected an object'],
    ['an array', [{ a: 'x' }], '(root): expected an object'],
    ['a Date', new Date(0), '(root): expected an object'],
    ['a Map', new Map([['a', 'x']]), '(root): expected an object'],
    [
      'a class instance',
      new (class {
        a = 'x';
      })(),
      '(root): expected an object',
    ],
    ['keys only on the prototype', Object.create({ a: 'x' }) as unknown, '(root): expected an object'],
    ['a string', 'a', '(root): expected an object'],
  ])('strict: %s → %s', (_name, value, expected) => {
    expect(reasonOf(strict, value)).toBe(expected);
  });

  it('accepts a null-prototype object', () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: 'x' });
    expect(reasonOf(strict, value)).toBe('ok');
  });

  it('never reads a required key through the prototype chain', () => {
    expect(reasonOf(object({ toString: string() }, 'loose'), {})).toBe('toString: required');
  });

  it('loose: ignores extra keys and returns only the shape, without a prototype', () => {
    const result = validate(loose, JSON.parse('{"a":"x","extra":1,"__proto__":{"polluted":true}}'));
    expect(result.kind).toBe('ok');
    const value = result.kind === 'ok' ? result.value : {};
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('nests paths', () => {
    const nested = object({ choices: arrayOf(object({ message: object({ content: string() }, 'loose') }, 'loose'), { min: 1 }) }, 'loose');
    expect(reasonOf(nested, { choices: [{ message: { content: 'x' } }, { message: { content: 2 } }] })).toBe(
      'choices.1.message.content: expected a string',
    );
  });
});

describe('validate never throws on hostile values', () => {
  const strict = object({ a: string() }, 'strict');
  test.each<[string, () => unknown]>([
    [
      'a throwing getter',
      () =>
        Object.defineProperty({}, 'a', {
          enumerable: true,
          get: () => {
            throw new Error('boom');
          },
        }),
    ],
    [
      'a Proxy whose traps throw',
      () =>
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('boom');
            },
            getPrototypeOf: () => {
              throw new Error('boom');
            },
          },
        ),
    ],
    [
      'a Proxy posing as a plain object',
      () =>
        new Proxy(
          { a: 'x' },
          {
            get: () => {
              throw new Error('boom');
            },
          },
        ),
    ],
    [
      'a revoked Proxy',
      () => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      },
    ],
  ])('%s → invalid, not an exception', (_name, make) => {
    const value = make();
    expect(() => validate(strict, value)).not.toThrow();
    expect(validate(strict, value).kind).toBe('invalid');
  });
});
