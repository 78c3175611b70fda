import { describeInvalid, validate } from '../validate/strict';
import { InboxItemSchema } from './inbox-reader';

const VALID = { from: '_operator', content: 'do it', seq: 1, timestamp: '2025-01-01T00:00:00.000Z', turn: 'abc_1-2' };

const check = (value: unknown): string => {
  const result = validate(InboxItemSchema, value);
  return result.kind === 'ok' ? 'ok' : describeInvalid(result);
};

describe('InboxItemSchema (docs/messaging.md, exactly five keys)', () => {
  test.each<[string, unknown, string]>([
    ['a valid item', VALID, 'ok'],
    ['seq as a digit string', { ...VALID, seq: '0001' }, 'ok'],
    ['an extra key', { ...VALID, extra: 1 }, 'extra: unknown key'],
    ['an own __proto__', JSON.parse(`{"__proto__":{"turn":"x"},${JSON.stringify(VALID).slice(1)}`), '__proto__: unknown key'],
    ['a missing turn', { from: VALID.from, content: VALID.content, seq: VALID.seq, timestamp: VALID.timestamp }, 'turn: required'],
    ['turn with ..', { ...VALID, turn: '../../escaped' }, 'turn: does not match the required pattern'],
    ['turn absolute', { ...VALID, turn: '/etc' }, 'turn: does not match the required pattern'],
    ['turn upper case', { ...VALID, turn: 'ABC' }, 'turn: does not match the required pattern'],
    ['turn with NUL', { ...VALID, turn: 'a\0b' }, 'turn: does not match the required pattern'],
    ['turn with a newline', { ...VALID, turn: 'ab\n' }, 'turn: does not match the required pattern'],
    ['turn of 65 chars', { ...VALID, turn: 'a'.repeat(65) }, 'turn: does not match the required pattern'],
    ['turn empty', { ...VALID, turn: '' }, 'turn: does not match the required pattern'],
    ['turn with shell syntax', { ...VALID, turn: '$(id)' }, 'turn: does not match the required pattern'],
    ['a negative seq', { ...VALID, seq: -1 }, 'seq: expected an integer in [0, 9007199254740991], or expected a string'],
    ['a fractional seq', { ...VALID, seq: 1.5 }, 'seq: expected an integer, or expected a string'],
    ['seq string with a sign', { ...VALID, seq: '+1' }, 'seq: expected an integer, or does not match the required pattern'],
    ['seq string of 16 digits', { ...VALID, seq: '1'.repeat(16) }, 'seq: expected an integer, or does not match the required pattern'],
    ['content not a string', { ...VALID, content: { text: 'x' } }, 'content: expected a string'],
    ['from null', { ...VALID, from: null }, 'from: expected a string'],
    ['timestamp a number', { ...VALID, timestamp: 0 }, 'timestamp: expected a string'],
    ['an array', [VALID], '(root): expected an object'],
    ['null', null, '(root): expected an object'],
  ])('%s → %s', (_name, value, expected) => {
    expect(check(value)).toBe(expected);
  });
});
