import { readdir } from 'node:fs/promises';
import { isTurnId, newTurnId, prepareTurnDir, readTurnReceipt, TURN_ID_RE, watchTurn } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

const BAD_IDS: unknown[] = [
  '',
  '..',
  '.',
  '../x',
  'a/b',
  '/abs',
  'a\0b',
  'A',
  'abc\n',
  'a b',
  'a;rm -rf',
  '$(id)',
  'x'.repeat(65),
  'é',
  42,
  null,
  undefined,
  ['a'],
];

describe('turn ids', () => {
  it('generates 26-char lower-case base32 ids that match TURN_ID_RE and do not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newTurnId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[a-z2-7]{26}$/);
    for (const id of ids) expect(TURN_ID_RE.test(id) && isTurnId(id)).toBe(true);
  });

  test.each(['a', 'abc-def_0', 'x'.repeat(64), '__proto__', 'constructor'])('accepts %p', (id) => {
    expect(isTurnId(id)).toBe(true);
  });

  test.each(BAD_IDS.map((id) => [id]))('rejects %p', (id) => {
    expect(isTurnId(id)).toBe(false);
  });

  describe('a bad id never becomes a path', () => {
    let fx: TurnFixture;
    beforeEach(async () => {
      fx = await makeTurnFixture();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test.each(BAD_IDS.map((id) => [id]))('every entry point throws invalid_turn_id for %p and creates nothing', async (id) => {
      const before = await readdir(fx.root, { recursive: true });
      const bad = id as string;
      await expect(readTurnReceipt(fx.workspace, bad)).rejects.toMatchObject({ name: 'ReceiptError', code: 'invalid_turn_id' });
      await expect(prepareTurnDir(fx.workspace, bad)).rejects.toMatchObject({ code: 'invalid_turn_id' });
      await expect(watchTurn(fx.workspace, bad)).rejects.toMatchObject({ code: 'invalid_turn_id' });
      expect(await readdir(fx.root, { recursive: true })).toEqual(before);
    });
  });
});
