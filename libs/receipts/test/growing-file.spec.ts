import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readTurnReceipt, readUntrustedFile } from '../src/index';
import type { Harness } from './support/child';
import { startHarness } from './support/child';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const BOUND = 65536;
const READS = 800;

describe('a file growing while it is read', () => {
  let fx: TurnFixture;
  let harness: Harness | undefined;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await writeFile(join(fx.turnDir, 'reply.md'), '');
    await fx.writeDone(okDone(fx.turnId));
    // Grows to 4x the bound, then truncates the same inode and starts over.
    harness = await startHarness('grow-harness.cjs', [join(fx.turnDir, 'reply.md'), String(BOUND * 4)]);
  });
  afterEach(async () => {
    await harness?.stop();
    await fx.cleanup();
  });

  it('readTurnReceipt never returns more than the bound and refuses the overflow as receipt_too_large', async () => {
    const seen = { ok: 0, too_large: 0, other: 0 };
    for (let i = 0; i < READS; i++) {
      const r = await readTurnReceipt(fx.workspace, fx.turnId, { replyMaxBytes: BOUND });
      if (r.kind === 'ok') {
        expect(r.reply?.length ?? 0).toBeLessThanOrEqual(BOUND);
        expect(/^a*$/.test(r.reply ?? '')).toBe(true);
        seen.ok += 1;
      } else if (r.kind === 'refused' && r.reason === 'receipt_too_large') seen.too_large += 1;
      else seen.other += 1;
    }
    expect(seen.other).toBe(0);
    expect(seen.too_large).toBeGreaterThan(0);
  });

  it('readUntrustedFile never returns more than maxBytes', async () => {
    for (let i = 0; i < READS; i++) {
      const r = await readUntrustedFile(fx.turnDir, 'reply.md', BOUND);
      if (r.kind === 'ok') expect(r.data.length).toBeLessThanOrEqual(BOUND);
      else expect(r).toEqual({ kind: 'refused', reason: 'receipt_too_large' });
    }
  });
});
