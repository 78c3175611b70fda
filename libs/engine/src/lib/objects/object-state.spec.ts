import { encodeObjectState, OBJECT_STATE_MAX_BYTES, parseObjectState } from './object-state';

describe('encodeObjectState', () => {
  it('stores undefined as null and keeps a state of exactly 1 MiB', () => {
    expect(encodeObjectState(undefined)).toEqual({ kind: 'ok', json: 'null' });
    const exact = 'x'.repeat(OBJECT_STATE_MAX_BYTES - 2);
    expect(encodeObjectState(exact).kind).toBe('ok');
    expect(encodeObjectState(`${exact}x`)).toEqual({ kind: 'too_large', bytes: OBJECT_STATE_MAX_BYTES + 1 });
  });

  test.each([
    [
      'a cycle',
      ((): unknown => {
        const a: unknown[] = [];
        a.push(a);
        return a;
      })(),
    ],
    ['a BigInt', { v: BigInt(2) }],
    [
      'a throwing toJSON',
      {
        toJSON: (): never => {
          throw new Error('no');
        },
      },
    ],
    ['a function', (): void => undefined],
    ['a symbol', Symbol('s')],
  ])('never throws on %s', (_what, state) => {
    expect(encodeObjectState(state).kind).toBe('not_serializable');
  });
});

describe('parseObjectState', () => {
  test.each([
    ['not JSON', '{'],
    ['empty', ''],
    ['over 1 MiB', JSON.stringify('x'.repeat(OBJECT_STATE_MAX_BYTES))],
    ['nested deeper than the stack', '['.repeat(200_000) + ']'.repeat(200_000)],
  ])('refuses %s', (_what, text) => {
    expect(parseObjectState(text).kind).toBe('invalid');
  });

  it('drops __proto__, constructor and prototype keys at every depth', () => {
    const r = parseObjectState('{"__proto__":{"p":1},"a":{"constructor":{"prototype":{"p":1}}},"b":[{"prototype":1,"k":2}]}');
    expect(r).toEqual({ kind: 'ok', state: { a: {}, b: [{ k: 2 }] } });
    const state = (r as { state: Record<string, unknown> }).state;
    expect(Object.getOwnPropertyNames(state)).toEqual(['a', 'b']);
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
  });
});
