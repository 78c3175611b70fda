import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

const T = '__TURN__';

/** Each case's done.json text; `__TURN__` is replaced by the fixture's turn id. */
const MALFORMED: Array<[string, string | Buffer]> = [
  ['truncated JSON', `{"v":1,"turn":"${T}","sta`],
  ['an empty file', ''],
  ['not JSON at all', 'ok'],
  ['an extra key', `{"v":1,"turn":"${T}","status":"ok","reply_to":"x"}`],
  ['a __proto__ key', `{"v":1,"turn":"${T}","status":"ok","__proto__":{"polluted":true}}`],
  ['a constructor key', `{"v":1,"turn":"${T}","status":"ok","constructor":{}}`],
  ['v = 2', `{"v":2,"turn":"${T}","status":"ok"}`],
  ['v = "1"', `{"v":"1","turn":"${T}","status":"ok"}`],
  ['v missing', `{"turn":"${T}","status":"ok"}`],
  ['turn missing', '{"v":1,"status":"ok"}'],
  ['turn a number', '{"v":1,"turn":1,"status":"ok"}'],
  ['status missing', `{"v":1,"turn":"${T}"}`],
  ['status "done"', `{"v":1,"turn":"${T}","status":"done"}`],
  ['status "OK"', `{"v":1,"turn":"${T}","status":"OK"}`],
  ['error with status ok', `{"v":1,"turn":"${T}","status":"ok","error":"x"}`],
  ['error null', `{"v":1,"turn":"${T}","status":"error","error":null}`],
  ['error a number', `{"v":1,"turn":"${T}","status":"error","error":5}`],
  ['error of 4097 chars', `{"v":1,"turn":"${T}","status":"error","error":"${'e'.repeat(4097)}"}`],
  ['an array', '[1]'],
  ['null', 'null'],
  ['a number', '1'],
  ['a string', '"ok"'],
  [
    'invalid UTF-8 bytes',
    Buffer.concat([Buffer.from(`{"v":1,"turn":"${T}","status":"error","error":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
  ],
  [
    'an overlong UTF-8 encoding',
    Buffer.concat([Buffer.from(`{"v":1,"turn":"${T}","status":"error","error":"`), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
  ],
];

describe('readTurnReceipt validates done.json strictly', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await fx.writeReply('genuine');
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  const withTurn = (text: string | Buffer): string | Buffer =>
    typeof text === 'string' ? text.replaceAll(T, fx.turnId) : Buffer.from(text.toString('latin1').replaceAll(T, fx.turnId), 'latin1');

  test.each(MALFORMED)('refuses %s as receipt_malformed', async (_name, text) => {
    await fx.writeDone(withTurn(text));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_malformed',
      file: 'done.json',
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test.each([
    ['another turn id', 'aaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['the id with different case', () => fx.turnId.toUpperCase()],
    ['the id with a trailing newline', () => `${fx.turnId}\n`],
    ['an empty turn', ''],
  ])('refuses %s as receipt_turn_mismatch', async (_name, turn) => {
    await fx.writeDone({ v: 1, turn: typeof turn === 'function' ? turn() : turn, status: 'ok' });
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_turn_mismatch',
      file: 'done.json',
    });
  });

  it('refuses status ok without reply.md as receipt_malformed', async () => {
    await fx.cleanup();
    fx = await makeTurnFixture();
    await fx.writeDone({ v: 1, turn: fx.turnId, status: 'ok' });
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_malformed',
      file: 'reply.md',
    });
  });
});
