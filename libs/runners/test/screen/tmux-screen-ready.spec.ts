import { describeIfBinaries } from '../tmux/tmux-support';
import { makeScreenWorld, type ScreenWorld } from './screen-world';

// A TUI client with screen rules in a tmux pane: ready only once its prompt is up and settled; a turn waits for that
// (and for the client to stop being busy), and its Enter follows the paste's echo.
describeIfBinaries(['tmux', 'xargs'])('tmux: a TUI client is ready when its prompt is up', () => {
  let world: ScreenWorld;
  beforeAll(async () => {
    world = await makeScreenWorld('screen-ready');
  });
  afterAll(async () => {
    await world.close();
  });

  it('is not ready while its prompt is not up, and ready once it is and the screen settled', async () => {
    const started = Date.now();
    const handle = await world.start('late', ['--prompt-after-ms', '1200']);
    const ready = await handle.waitUntilReady?.(new AbortController().signal);
    expect(ready).toEqual({ kind: 'ready', waitedMs: expect.any(Number) });
    // the prompt comes at 1.2 s and must stay unchanged for settleMs (200 ms)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect((await handle.captureScreen?.())?.at(-1)).toMatch(/^fake-tui> ?$/);
  });

  it('holds a turn delivered right after the start until the prompt is up: nothing is lost', async () => {
    const handle = await world.start('early', ['--prompt-after-ms', '1200']);
    await handle.deliver(world.turn('early', 'early-1'));
    expect(await world.done('early', 'early-1')).toEqual({ v: 1, turn: 'early-1', status: 'ok' });
    const report = await world.report('early');
    expect(report.discarded).toBe(0);
    expect(report.submissions).toHaveLength(1);
  });

  it('waits while the client is busy with a turn before pasting the next', async () => {
    const handle = await world.start('busy', ['--prompt', '--busy-ms', '1000']);
    await handle.deliver(world.turn('busy', 'busy-1'));
    await handle.deliver(world.turn('busy', 'busy-2'));
    expect(await world.done('busy', 'busy-2')).toEqual({ v: 1, turn: 'busy-2', status: 'ok' });
    const report = await world.report('busy');
    expect(report.discarded).toBe(0);
    expect(report.submissions.map((s) => /turn (busy-\d)/.exec(s)?.[1])).toEqual(['busy-1', 'busy-2']);
  });

  it.each([
    ['echoes the text', ['--prompt']],
    ['folds the paste into a placeholder', ['--prompt', '--fold-paste']],
  ])('presses Enter only after the screen shows the paste (client %s)', async (_label, options) => {
    const agent = options.includes('--fold-paste') ? 'folds' : 'echoes';
    // an Enter that arrives with other input is a newline to this client (Codex on a raw pty): only a lone Enter submits
    const handle = await world.start(agent, [...options, '--enter-in-burst-is-newline']);
    await handle.deliver(world.turn(agent, `${agent}-1`, 'one\ntwo'));
    expect(await world.done(agent, `${agent}-1`)).toEqual({ v: 1, turn: `${agent}-1`, status: 'ok' });
    const [submitted] = (await world.report(agent)).submissions;
    expect(submitted).toMatch(/^\[genswarms\] turn \S+ — message 1 from _operator:\none\ntwo\nWhen finished, .*done\.json\.$/);
  });
});
