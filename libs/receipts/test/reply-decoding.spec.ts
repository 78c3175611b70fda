import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

describe('readTurnReceipt decodes reply.md leniently', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  test.each([
    ['invalid bytes', Buffer.from([0x61, 0xff, 0x62]), 'a\uFFFDb'],
    ['a truncated multi-byte sequence', Buffer.from([0x61, 0xe2, 0x82]), 'a\uFFFD'],
    ['a NUL byte', Buffer.from([0x61, 0x00, 0x62]), 'a\u0000b'],
    ['plain UTF-8', Buffer.from('naïve ✓', 'utf8'), 'naïve ✓'],
  ])('decodes %s with replacement characters instead of throwing', async (_name, bytes, text) => {
    await fx.writeReply(bytes);
    await fx.writeDone(okDone(fx.turnId));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'ok', status: 'ok', reply: text });
  });
});
