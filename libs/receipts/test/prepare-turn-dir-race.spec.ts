import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newTurnId, prepareTurnDir } from '../src/index';
import type { Harness } from './support/child';
import { startHarness } from './support/child';
import { treeOf } from './support/tree';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

/** At least this many prepares, and on until the agent really swapped > MIN_SWAPS times meanwhile. */
const MIN_PREPARES = 1000;
const MAX_PREPARES = 40_000;
const MIN_SWAPS = 3000;
/** Generous: on a loaded machine both processes get little CPU, and the walk makes several syscalls per step. */
const RACE_TIMEOUT_MS = 120_000;

/** The flipper's latest "swapped N" progress line (read from the end: its output grows all along). */
function lastSwapCount(output: string): number {
  const at = output.lastIndexOf('swapped ');
  return at < 0 ? 0 : Number.parseInt(output.slice(at + 'swapped '.length), 10);
}

describe('prepareTurnDir while the agent flips .genswarms or turns to an outside symlink', () => {
  let fx: TurnFixture;
  let harness: Harness | undefined;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await rm(fx.turnDir, { recursive: true });
    // the evil tree mirrors the workspace layout, so a path-based mkdir that follows the link lands there
    await mkdir(join(fx.outside, 'gs', 'turns'), { recursive: true });
    await mkdir(join(fx.outside, 'turns'), { recursive: true });
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    await fx.cleanup();
  });

  test.each<[string, string, string]>([
    ['.genswarms/turns', '.genswarms/turns', 'turns'],
    ['.genswarms', '.genswarms', 'gs'],
  ])(
    'never creates a directory outside the workspace while %s flips',
    async (_name, component, evil) => {
      const outsideBefore = await treeOf(fx.outside);
      harness = await startHarness('inbox-flip-harness.cjs', [join(fx.workspace, component), join(fx.outside, evil)]);
      const kinds = new Map<string, number>();
      const swappedSoFar = (): number => lastSwapCount(harness!.output());
      for (let i = 0; i < MAX_PREPARES && (i < MIN_PREPARES || swappedSoFar() <= MIN_SWAPS); i++) {
        const kind = await prepareTurnDir(fx.workspace, newTurnId()).then(
          (r) => r.kind,
          () => 'threw',
        );
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      const swaps = Number(/swaps (\d+)/.exec(await harness.stop())?.[1]);
      harness = undefined;
      expect(await treeOf(fx.outside)).toEqual(outsideBefore);
      expect(swaps).toBeGreaterThan(MIN_SWAPS);
      expect([...kinds.keys()].filter((k) => k !== 'ok' && k !== 'refused')).toEqual([]);
    },
    RACE_TIMEOUT_MS,
  );
});
