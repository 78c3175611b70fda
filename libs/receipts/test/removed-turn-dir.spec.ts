/**
 * An agent that empties its own workspace removes the turn directory the host prepared. With
 * `requireTurnDir` the watch refuses that turn `receipt_replaced` (file `directory`) instead of waiting forever;
 * without it a missing directory stays `pending` (the default, unchanged).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchTurn } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

describe('a turn directory removed under the watch', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  test.each([
    ['the turn directory', (f: TurnFixture) => f.turnDir],
    ['the whole .genswarms tree', (f: TurnFixture) => join(f.workspace, '.genswarms')],
  ])('%s removed → refused receipt_replaced (directory) with requireTurnDir', async (_what, target) => {
    await rm(target(fx), { recursive: true, force: true });
    const receipt = await watchTurn(fx.workspace, fx.turnId, { requireTurnDir: true, pollMs: 50 });
    expect(receipt).toEqual({ kind: 'refused', reason: 'receipt_replaced', file: 'directory' });
  });

  test('without requireTurnDir a missing directory is still pending', async () => {
    await rm(fx.turnDir, { recursive: true, force: true });
    const abort = new AbortController();
    const watching = watchTurn(fx.workspace, fx.turnId, { signal: abort.signal, pollMs: 50 });
    await sleep(800);
    abort.abort();
    await expect(watching).rejects.toMatchObject({ name: 'AbortError' });
  });
});
