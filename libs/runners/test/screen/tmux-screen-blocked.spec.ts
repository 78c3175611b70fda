import type { ClientBlocked } from '../../src/lib/port';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { describeIfBinaries, waitFor } from '../tmux/tmux-support';
import { makeScreenWorld, type ScreenWorld } from './screen-world';

const DIALOG_LINE = 'Allow this action? [1. Yes / 2. No]';

async function deliveryError(run: Promise<void>): Promise<RunnerError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RunnerError)) throw new Error(`expected a RunnerError, got ${String(err)}`);
  return err;
}

// A client that shows a dialog, or never takes the paste, is reported stuck (client_prompt_blocked with its last
// lines) — and nothing the host sends answers the dialog.
describeIfBinaries(['tmux', 'xargs'])('tmux: a TUI client that waits for a person is reported, never answered', () => {
  let world: ScreenWorld;
  beforeAll(async () => {
    world = await makeScreenWorld('screen-blocked');
  });
  afterAll(async () => {
    await world.close();
  });

  it('reports a dialog at start as blocked, with the screen last lines, and pastes nothing into it', async () => {
    const handle = await world.start('asks', ['--dialog-at-start']);
    const ready = await handle.waitUntilReady?.(new AbortController().signal);
    expect(ready).toEqual({ kind: 'blocked', dialog: 'fake_dialog', lastLines: expect.arrayContaining([DIALOG_LINE]) });
    const err = await deliveryError(handle.deliver(world.turn('asks', 'asks-1')));
    expect({ code: err.code, stage: err.details?.['stage'], dialog: err.details?.['dialog'] }).toEqual({
      code: 'client_prompt_blocked',
      stage: 'not_ready',
      dialog: 'fake_dialog',
    });
    expect(err.details?.['last_lines']).toEqual(expect.arrayContaining([DIALOG_LINE]));
    expect(await world.report('asks')).toMatchObject({ dialogAnswers: 0, discarded: 0, submissions: [] });
  });

  it('reports a dialog that shows after a turn once, and the next turn is not pasted into it', async () => {
    const handle = await world.start('later', ['--prompt', '--dialog-after-turn']);
    const seen: ClientBlocked[] = [];
    handle.onClientBlocked?.((b) => seen.push(b));
    await handle.deliver(world.turn('later', 'later-1'));
    await world.done('later', 'later-1');
    await waitFor(() => (seen.length > 0 ? true : undefined), 'the dialog reported', { timeoutMs: 5000 });
    expect(seen).toEqual([{ dialog: 'fake_dialog', lastLines: expect.arrayContaining([DIALOG_LINE]) }]);
    const err = await deliveryError(handle.deliver(world.turn('later', 'later-2')));
    expect([err.code, err.details?.['stage']]).toEqual(['client_prompt_blocked', 'not_ready']);
    expect(await world.report('later')).toMatchObject({ dialogAnswers: 0 });
    expect(seen).toHaveLength(1);
  });

  it('reports a client whose screen does not change after Enter (the Enter was not taken)', async () => {
    const handle = await world.start('deaf', ['--prompt', '--ignore-enter']);
    const err = await deliveryError(handle.deliver(world.turn('deaf', 'deaf-1')));
    expect([err.code, err.details?.['stage']]).toEqual(['client_prompt_blocked', 'enter_not_taken']);
    expect((err.details?.['last_lines'] as string[]).at(-1)).toMatch(/^fake-tui> \[genswarms\] turn deaf-1 — message 1/);
    expect((await world.report('deaf')).submissions).toEqual([]);
  });

  it('reports a client that never shows its prompt', async () => {
    const handle = await world.start('mute', ['--prompt-after-ms', '60000']);
    const ready = await handle.waitUntilReady?.(new AbortController().signal);
    expect(ready).toEqual({ kind: 'timeout', waitedMs: expect.any(Number), lastLines: [expect.stringMatching(/^fake-tui ready/)] });
  });

  it('says a client exited instead of waiting for its prompt', async () => {
    const handle = await world.start('gone', ['--prompt-after-ms', '60000', '--crash-after-ms', '300']);
    const ready = await handle.waitUntilReady?.(new AbortController().signal);
    expect(ready).toEqual({ kind: 'exited', lastLines: expect.any(Array) });
    // the dead pane is still readable (tmux scrolls its `Pane is dead` line in below): `genswarms logs` shows it
    expect(await handle.captureScreen?.()).toEqual(expect.arrayContaining([expect.stringMatching(/^fake-tui ready/)]));
  });
});
