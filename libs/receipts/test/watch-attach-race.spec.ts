/**
 * The watcher attached its fs.watch only after its first check and never checked again, so a
 * receipt written in between waited for the fallback poll (the ~250 ms p99 tail of receipt → event on every
 * backend). The poll is disabled here (60 s): only a check after the watch is live can see the receipt.
 */
import { renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchTurn } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const POLL_DISABLED_MS = 60_000;

describe('watchTurn attaches its watch before relying on it', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  function writeReceiptNow(): void {
    for (const [name, text] of [
      ['reply.md', 'written while the watch attached'],
      ['done.json', JSON.stringify(okDone(fx.turnId))],
    ] as const) {
      writeFileSync(join(fx.turnDir, `.${name}.tmp`), text);
      renameSync(join(fx.turnDir, `.${name}.tmp`), join(fx.turnDir, name));
    }
  }

  it('sees a receipt renamed into place just before the watch went live, without the poll', async () => {
    let attaches = 0;
    // The receipt lands after the watcher decided to watch and before inotify is live: no event will come.
    const fsWatch = ((...args: Parameters<typeof watch>) => {
      attaches += 1;
      writeReceiptNow();
      return watch(...args);
    }) as typeof watch;
    const abort = new AbortController();
    const watching = watchTurn(fx.workspace, fx.turnId, { pollMs: POLL_DISABLED_MS, fsWatch, signal: abort.signal });
    const timer = new AbortController();
    const poll = sleep(5_000, 'left to the poll' as const, { signal: timer.signal }).catch(() => 'cancelled' as const);
    const outcome = await Promise.race([watching, poll]);
    timer.abort();
    abort.abort();
    await watching.catch(() => undefined); // expected: aborted when the race was lost
    expect(attaches).toBe(1);
    expect(outcome).toMatchObject({ kind: 'ok', reply: 'written while the watch attached' });
  });

  it('sees a receipt written right at start, before any check', async () => {
    writeReceiptNow();
    const receipt = await watchTurn(fx.workspace, fx.turnId, { pollMs: POLL_DISABLED_MS });
    expect(receipt).toMatchObject({ kind: 'ok' });
  });
});
