import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TurnReceipt } from '../src/index';
import { readTurnReceipt } from '../src/index';
import type { Harness } from './support/child';
import { startHarness } from './support/child';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const READS = 1500;

/** Genuine = status ok + reply GENUINE. Anything else that is `ok` came from the attacker. */
function classify(receipt: TurnReceipt): 'genuine' | 'refused' | 'pending' | 'EVIL' {
  if (receipt.kind === 'pending') return 'pending';
  if (receipt.kind === 'refused') return 'refused';
  return receipt.status === 'ok' && receipt.reply === 'GENUINE' && receipt.error === undefined ? 'genuine' : 'EVIL';
}

describe('readTurnReceipt under a replacement race', () => {
  let fx: TurnFixture;
  let harness: Harness | undefined;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await fx.writeReply('GENUINE');
    await fx.writeDone(okDone(fx.turnId));
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    await fx.cleanup();
  });

  async function readMany(): Promise<Record<string, number>> {
    const counts: Record<string, number> = { genuine: 0, refused: 0, pending: 0, EVIL: 0 };
    for (let i = 0; i < READS; i++) {
      const kind = classify(await readTurnReceipt(fx.workspace, fx.turnId));
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return counts;
  }

  it('never returns swapped-in content while done.json cycles genuine / symlink / hard link', async () => {
    const evil = join(fx.outside, 'evil');
    await mkdir(evil);
    await writeFile(join(evil, 'done.json'), JSON.stringify({ v: 1, turn: fx.turnId, status: 'error', error: 'EVIL' }));
    harness = await startHarness('swap-harness.cjs', ['file', fx.turnDir, evil]);
    const counts = await readMany();
    const swaps = Number(/swaps (\d+)/.exec(await harness.stop())?.[1]);
    harness = undefined;
    expect(counts['EVIL']).toBe(0);
    expect(counts['pending']).toBe(0);
    expect(counts['refused']).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(150);
  });

  test.each([
    ['the turn directory', (fx: TurnFixture) => fx.turnDir],
    ['turns', (fx: TurnFixture) => join(fx.workspace, '.genswarms', 'turns')],
    ['.genswarms', (fx: TurnFixture) => join(fx.workspace, '.genswarms')],
  ])('never returns content from an evil tree while %s flips to a symlink', async (_name, componentOf) => {
    const component = componentOf(fx);
    const below = fx.turnDir.slice(component.length);
    const evilCopy = join(fx.outside, 'mirror');
    await mkdir(join(evilCopy, below), { recursive: true });
    await writeFile(join(evilCopy, below, 'done.json'), JSON.stringify(okDone(fx.turnId)));
    await writeFile(join(evilCopy, below, 'reply.md'), 'EVIL');
    harness = await startHarness('swap-harness.cjs', ['dir', component, evilCopy]);
    const counts = await readMany();
    await harness.stop();
    harness = undefined;
    expect(counts['EVIL']).toBe(0);
    expect((counts['genuine'] ?? 0) + (counts['refused'] ?? 0) + (counts['pending'] ?? 0)).toBe(READS);
  });
});
