/**
 * Every inotify event in the turn directory woke a full receipt attempt — a client's temp file
 * alone makes 3–4 (create, modify, close, rename away), ~10 attempts per turn. Only an event naming
 * done.json or reply.md (or naming nothing) wakes the watcher now. The watch here is pointed at a decoy
 * directory, so which events wake it is the only way the receipt (planted in the real turn dir) is seen.
 */
import { mkdtempSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchTurn } from '../src/index';
import { isReceiptName } from '../src/lib/watch/dir-watch';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const POLL_DISABLED_MS = 60_000;
/** How long a temp-file event is given to (wrongly) wake the watcher. */
const QUIET_MS = 400;

describe('watchTurn wakes only on events naming a receipt file', () => {
  let fx: TurnFixture;
  let decoy: string;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    decoy = mkdtempSync(join(tmpdir(), 'receipts-decoy-'));
  });
  afterEach(async () => {
    rmSync(decoy, { recursive: true, force: true });
    await fx.cleanup();
  });

  it.each([
    ['done.json', true],
    ['reply.md', true],
    [null, true],
    [undefined, true],
    [Buffer.from('done.json'), true],
    ['.done.json.0123abcd.tmp', false],
    ['.reply.md.tmp', false],
    ['done.json.tmp', false],
    ['other', false],
  ])('isReceiptName(%p) is %p', (name, expected) => {
    expect(isReceiptName(name)).toBe(expected);
  });

  it('ignores temp-file events and reads the receipt on the rename that names done.json', async () => {
    let live!: () => void;
    const attached = new Promise<void>((resolve) => (live = resolve));
    const fsWatch = ((_path: string, opts: object, listener: (event: string, name: string | null) => void) => {
      const watcher = watch(decoy, opts, listener);
      live();
      return watcher;
    }) as unknown as typeof watch;
    const abort = new AbortController();
    let settled = false;
    const watching = watchTurn(fx.workspace, fx.turnId, { pollMs: POLL_DISABLED_MS, fsWatch, signal: abort.signal }).finally(() => {
      settled = true;
    });
    try {
      await attached;
      await sleep(100); // the check made once the watch is live sees nothing yet
      writeFileSync(join(fx.turnDir, 'reply.md'), 'planted without an event');
      writeFileSync(join(fx.turnDir, 'done.json'), JSON.stringify(okDone(fx.turnId)));
      writeFileSync(join(decoy, '.done.json.0123abcd.tmp'), 'x');
      await sleep(QUIET_MS);
      expect(settled).toBe(false);
      renameSync(join(decoy, '.done.json.0123abcd.tmp'), join(decoy, 'done.json'));
      await expect(watching).resolves.toMatchObject({ kind: 'ok', reply: 'planted without an event' });
    } finally {
      abort.abort();
      await watching.catch(() => undefined); // expected: aborted when an expectation failed first
    }
  });
});
