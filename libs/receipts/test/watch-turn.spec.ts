import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchTurn } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

/** fs.watch handles alive in this process. */
function liveHandles(): { watchers: number } {
  return { watchers: process.getActiveResourcesInfo().filter((t) => t === 'FSEventWrap').length };
}

/** Runs a test body and asserts that no watcher it started outlives it (measured inside the test). */
function leakFree<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const before = liveHandles();
    await body(...args);
    // Closed handles leave the list in a later loop iteration's close phase: allow a few turns.
    // Jest's own timers come and go, so only watchers are counted here (timers: watch-leak.spec.ts).
    for (let i = 0; i < 5 && liveHandles().watchers !== before.watchers; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(liveHandles().watchers).toBe(before.watchers);
  };
}

describe('watchTurn', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it(
    'resolves with the receipt written after the watch started',
    leakFree(async () => {
      const watching = watchTurn(fx.workspace, fx.turnId);
      await sleep(30);
      await fx.writeReply('done!');
      await fx.writeDone(okDone(fx.turnId));
      await expect(watching).resolves.toEqual({ kind: 'ok', status: 'ok', reply: 'done!' });
    }),
  );

  it(
    'is woken by fs.watch: resolves even when the poll period is a minute',
    leakFree(async () => {
      const watching = watchTurn(fx.workspace, fx.turnId, { pollMs: 60000 });
      await sleep(100);
      await fx.writeReply('fast');
      await fx.writeDone(okDone(fx.turnId));
      await expect(watching).resolves.toEqual({ kind: 'ok', status: 'ok', reply: 'fast' });
    }),
    10000,
  );

  it(
    'keeps polling until the turn directory appears, then reads it',
    leakFree(async () => {
      await rm(fx.turnDir, { recursive: true });
      const watching = watchTurn(fx.workspace, fx.turnId, { pollMs: 20 });
      await sleep(60);
      await mkdir(fx.turnDir, { mode: 0o700 });
      await fx.writeReply('late');
      await fx.writeDone(okDone(fx.turnId));
      await expect(watching).resolves.toEqual({ kind: 'ok', status: 'ok', reply: 'late' });
    }),
  );

  test.each([
    [
      'done.json before reply.md',
      async (fx: TurnFixture) => {
        await fx.writeDone(okDone(fx.turnId));
        await sleep(150);
        await fx.writeReply('out of order');
      },
    ],
    [
      'done.json written non-atomically in two parts',
      async (fx: TurnFixture) => {
        await fx.writeReply('out of order');
        const text = JSON.stringify(okDone(fx.turnId));
        await writeFile(join(fx.turnDir, 'done.json'), text.slice(0, 10));
        await sleep(150);
        await writeFile(join(fx.turnDir, 'done.json'), text);
      },
    ],
  ])(
    'tolerates %s',
    leakFree(async (_name, write) => {
      const watching = watchTurn(fx.workspace, fx.turnId, { pollMs: 20 });
      await write(fx);
      await expect(watching).resolves.toEqual({ kind: 'ok', status: 'ok', reply: 'out of order' });
    }),
  );

  test.each([
    ['an unparsable done.json that stays unchanged', (fx: TurnFixture) => fx.writeDone('{"v":1,'), 'done.json'],
    ['status ok while reply.md never appears', (fx: TurnFixture) => fx.writeDone(okDone(fx.turnId)), 'reply.md'],
  ])(
    'declares %s receipt_malformed once it is stable',
    leakFree(async (_name, write, file) => {
      await write(fx);
      await expect(watchTurn(fx.workspace, fx.turnId, { pollMs: 50 })).resolves.toEqual({
        kind: 'refused',
        reason: 'receipt_malformed',
        file,
      });
    }),
  );

  it(
    'settles a malformed verdict only after two reads at least 500 ms apart',
    leakFree(async () => {
      await fx.writeDone('not json');
      const started = Date.now();
      await expect(watchTurn(fx.workspace, fx.turnId, { pollMs: 10 })).resolves.toMatchObject({ reason: 'receipt_malformed' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    }),
  );

  test.each([
    ['done.json is a symlink', (fx: TurnFixture) => symlink('/etc/passwd', join(fx.turnDir, 'done.json')), 'receipt_symlink', 'done.json'],
    [
      'the done.json shape is wrong',
      (fx: TurnFixture) => fx.writeDone({ v: 2, turn: fx.turnId, status: 'ok' }),
      'receipt_malformed',
      'done.json',
    ],
    [
      'the turn id is wrong',
      (fx: TurnFixture) => fx.writeDone({ v: 1, turn: 'other', status: 'ok' }),
      'receipt_turn_mismatch',
      'done.json',
    ],
  ])(
    'refuses at once when %s',
    leakFree(async (_name, plant, reason, file) => {
      await plant(fx);
      await expect(watchTurn(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'refused', reason, file });
    }),
  );

  it(
    'never watches through a symlinked turn directory and refuses it',
    leakFree(async () => {
      await rename(fx.turnDir, `${fx.turnDir}.aside`);
      await symlink(fx.outside, fx.turnDir);
      await expect(watchTurn(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink', file: 'directory' });
    }),
  );

  it(
    'rejects with AbortError when aborted mid-watch',
    leakFree(async () => {
      const controller = new AbortController();
      const watching = watchTurn(fx.workspace, fx.turnId, { signal: controller.signal });
      await sleep(50);
      controller.abort(new Error('session stopped'));
      await expect(watching).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: new Error('session stopped') });
    }),
  );

  it(
    'rejects with AbortError when the signal is already aborted',
    leakFree(async () => {
      await fx.writeReply('x');
      await fx.writeDone(okDone(fx.turnId));
      await expect(watchTurn(fx.workspace, fx.turnId, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    }),
  );

  test.each([[0], [-5], [Number.NaN], [Number.POSITIVE_INFINITY]])('throws invalid_option for pollMs %p', async (pollMs) => {
    await expect(watchTurn(fx.workspace, fx.turnId, { pollMs })).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
