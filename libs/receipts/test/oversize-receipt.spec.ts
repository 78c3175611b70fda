import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const TEN_GIB = 10 * 1024 * 1024 * 1024;

describe('readTurnReceipt enforces byte bounds', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  async function sparse(name: string, size: number): Promise<void> {
    const handle = await open(join(fx.turnDir, name), 'wx', 0o600);
    await handle.truncate(size);
    await handle.close();
  }

  it('refuses a 10 GiB sparse reply.md as receipt_too_large', async () => {
    await sparse('reply.md', TEN_GIB);
    await fx.writeDone(okDone(fx.turnId));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_too_large',
      file: 'reply.md',
    });
  });

  it('refuses a 10 GiB sparse done.json as receipt_too_large', async () => {
    await sparse('done.json', TEN_GIB);
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_too_large',
      file: 'done.json',
    });
  });

  test.each([
    ['done.json of 65537 bytes', 'done.json', 65537, undefined, 'receipt_too_large'],
    ['reply.md of 1048577 bytes', 'reply.md', 1048577, undefined, 'receipt_too_large'],
    ['reply.md over a configured 10-byte bound', 'reply.md', 11, { replyMaxBytes: 10 }, 'receipt_too_large'],
  ])('refuses %s', async (_name, file, size, bounds, reason) => {
    if (file === 'reply.md') {
      await fx.writeReply(Buffer.alloc(size, 0x61));
      await fx.writeDone(okDone(fx.turnId));
    } else {
      await fx.writeDone(Buffer.alloc(size, 0x20));
    }
    await expect(readTurnReceipt(fx.workspace, fx.turnId, bounds)).resolves.toEqual({ kind: 'refused', reason, file });
  });

  it('accepts a reply.md of exactly the bound', async () => {
    await fx.writeReply(Buffer.alloc(1048576, 0x61));
    await fx.writeDone(okDone(fx.turnId));
    const receipt = await readTurnReceipt(fx.workspace, fx.turnId);
    expect(receipt.kind === 'ok' ? receipt.reply?.length : receipt).toBe(1048576);
  });

  it('accepts a done.json padded with whitespace to exactly 65536 bytes', async () => {
    const body = JSON.stringify(okDone(fx.turnId));
    await fx.writeReply('r');
    await fx.writeDone(body + ' '.repeat(65536 - body.length));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'ok', status: 'ok', reply: 'r' });
  });

  test.each([[-1], [1.5], [Number.NaN], [2 ** 40]])('throws invalid_option for a bound of %p', async (bound) => {
    await expect(readTurnReceipt(fx.workspace, fx.turnId, { doneMaxBytes: bound })).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
