import { CODING_CLIENT_NAMES } from '../../src/index';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { describeIfBinaries } from '../tmux/tmux-support';
import { clientUnderTest } from './real-client-support';
import { makePaneWorld, type PaneWorld } from './pane-support';
import { commandAs, runPaneTurn } from './pane-turn';

jest.setTimeout(120_000);

// The published clients in a tmux pane (runner bwrap) against the mock: ready only once the prompt is up, a turn
// delivered at once is held until then (OpenCode loses keys typed before its first screen), Enter after the echo.
describeIfBinaries(['tmux', 'xargs', 'bwrap'])('published clients in a tmux pane (runner bwrap)', () => {
  let world: PaneWorld;
  const runner = createTmuxRunner({ screens: commandAs('codex') });
  beforeAll(async () => {
    world = await makePaneWorld('pane-bwrap');
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
        // Codex's TUI starts a background server from its npm tree, which a sandbox given its binary alone lacks
        const args = client === 'codex' ? ['--no-daemon'] : undefined;
        const result = await runPaneTurn(world, runner, client, under.client, 'bwrap', args);
        console.info(`${client} pane (runner bwrap): ready after ${result.readyMs} ms, receipt after ${result.turnMs} ms`);
        expect(result.verdictAtReady).toEqual({ kind: 'ready' });
        expect(result.done).toEqual({ v: 1, turn: `t${client}bwrap`, status: 'ok' });
        expect(result.screen.join('\n')).not.toContain(world.key);
        expect(result.screen.join('\n')).not.toContain('[REDACTED]'); // the key never reached the screen at all
      },
    );
  });
});
