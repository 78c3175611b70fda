import { normalizeToken, tokensMatch } from './token';

describe('normalizeToken', () => {
  test.each<[string | undefined, string | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['   ', undefined],
    ['\t\n', undefined],
    ['abc', 'abc'],
    [' abc ', ' abc '],
  ])('%j → %j (verbatim, never trimmed)', (raw, want) => {
    expect(normalizeToken(raw)).toBe(want);
  });
});

describe('tokensMatch', () => {
  test.each<[unknown, string | undefined, boolean]>([
    ['secret', 'secret', true],
    ['secret ', 'secret', false],
    ['Secret', 'secret', false],
    ['secre', 'secret', false],
    ['secretx', 'secret', false],
    ['', '', false],
    ['', 'secret', false],
    [undefined, 'secret', false],
    [null, 'secret', false],
    [123, '123', false],
    [['secret'], 'secret', false],
    [{ toString: () => 'secret' }, 'secret', false],
    ['secret', undefined, false],
    ['  ', '  ', false],
    ['ü', 'ü', true],
  ])('tokensMatch(%j, %j) is %s', (presented, expected, want) => {
    expect(tokensMatch(presented, expected)).toBe(want);
  });
});
