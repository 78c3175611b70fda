import { CODING_CLIENT_NAMES } from '../../src/index';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { describeIfBinaries } from '../tmux/tmux-support';
import { clientUnderTest } from './real-client-support';
import { makePaneWorld, type PaneWorld } from './pane-support';
import { runPaneTurn } from './pane-turn';

jest.setTimeout(120_000);

// The published clients in a tmux pane (runner none) against the mock: ready only once the prompt is up, a turn
// delivered at once is held until then (OpenCode loses keys typed before its first screen), Enter after the echo.
describeIfBinaries(['tmux', 'xargs'])('published clients in a tmux pane (runner none)', () => {
  let world: PaneWorld;
  const runner = createTmuxRunner();
  beforeAll(async () => {
    world = await makePaneWorld('pane-none');
  });
  afterAll(async () => {
    await (await runner.server(world.ctx)).kill();
    await world.cleanup();
  });

  describe.each(CODING_CLIENT_NAMES)('%s', (client) => {
    const under = clientUnderTest(client);
    (('skip' in under ? it.skip : it) as jest.It)(
      'is ready only with its prompt up, takes a turn delivered right after its start',
      async () => {
        if ('skip' in under) return;
        const result = await runPaneTurn(world, runner, client, under.client, 'none');
        console.info(`${client} pane (runner none): ready after ${result.readyMs} ms, receipt after ${result.turnMs} ms`);
        expect(result.verdictAtReady).toEqual({ kind: 'ready' });
        expect(result.done).toEqual({ v: 1, turn: `t${client}none`, status: 'ok' });
        expect(result.screen.join('\n')).not.toContain(world.key);
        expect(result.screen.join('\n')).not.toContain('[REDACTED]'); // the key never reached the screen at all
      },
    );
  });
});
