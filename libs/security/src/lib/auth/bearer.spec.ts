import { parseBearer } from './bearer';

describe('parseBearer', () => {
  test.each<[string | string[] | undefined, string | undefined]>([
    ['Bearer abc', 'abc'],
    ['Bearer a b c', 'a b c'],
    ['Bearer abc ', 'abc '],
    ['bearer abc', undefined],
    ['BEARER abc', undefined],
    ['Token abc', undefined],
    ['abc', undefined],
    ['Bearer', undefined],
    ['Bearer ', ''],
    ['Bearer  abc', ' abc'],
    ['Bearer\tabc', undefined],
    [' Bearer abc', undefined],
    ['', undefined],
    [undefined, undefined],
    [['Bearer first', 'Bearer second'], 'first'],
    [['Basic x', 'Bearer second'], undefined],
    [[], undefined],
  ])('%j → %j', (header, token) => {
    expect(parseBearer(header)).toBe(token);
  });
});
