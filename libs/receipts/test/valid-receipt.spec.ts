import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

describe('readTurnReceipt on well-formed receipts', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('is pending while done.json is absent, even with reply.md present', async () => {
    await fx.writeReply('half done');
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'pending' });
  });

  it('is pending while the turn directory does not exist yet', async () => {
    await rm(fx.turnDir, { recursive: true });
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'pending' });
  });

  it('returns the reply of an ok receipt', async () => {
    await fx.writeReply('héllo ✓\n<<SWARM_MSG:END>>');
    await fx.writeDone(okDone(fx.turnId));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'ok',
      status: 'ok',
      reply: 'héllo ✓\n<<SWARM_MSG:END>>',
    });
  });

  it('accepts an empty reply.md with status ok', async () => {
    await fx.writeReply('');
    await fx.writeDone(okDone(fx.turnId));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'ok', status: 'ok', reply: '' });
  });

  test.each([
    ['error with message and reply', { status: 'error', error: 'boom' }, 'partial', { status: 'error', error: 'boom', reply: 'partial' }],
    [
      'error without reply.md gives reply null',
      { status: 'error', error: 'boom' },
      undefined,
      { status: 'error', error: 'boom', reply: null },
    ],
    ['error without message or reply', { status: 'error' }, undefined, { status: 'error', reply: null }],
    [
      'error of exactly 4096 chars',
      { status: 'error', error: 'e'.repeat(4096) },
      undefined,
      { status: 'error', error: 'e'.repeat(4096), reply: null },
    ],
  ])('reads %s', async (_name, fields, reply, expected) => {
    if (reply !== undefined) await fx.writeReply(reply);
    await fx.writeDone({ v: 1, turn: fx.turnId, ...fields });
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'ok', ...expected });
  });

  it('reads a turn whose id is the string __proto__ like any other', async () => {
    const turnDir = join(fx.workspace, '.genswarms', 'turns', '__proto__');
    await mkdir(turnDir, { mode: 0o700 });
    await expect(readTurnReceipt(fx.workspace, '__proto__')).resolves.toEqual({ kind: 'pending' });
  });
});
