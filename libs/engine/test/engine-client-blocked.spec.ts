/**
 * A TUI client that waits for a person says so: a dialog (at start, or after a turn) or a paste it does not take
 * puts the agent in `needs_attention` with reason `client_prompt_blocked` and the screen's last lines; a client that
 * dies fails the agent (`process_exited`) with its last lines. Nothing the host sends answers a dialog.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { waitEvent, waitFor, type Harness } from './harness';
import { fakeTuiAgent, makeScreenHarness } from './screen-engine';

const DIALOG_LINE = 'Allow this action? [1. Yes / 2. No]';

/** The pid of the fake-tui process started with `marker` in its argv. */
function fakeTuiPid(marker: string): number {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const words = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (words.some((w) => w.endsWith('fake-tui.js')) && words.includes(marker)) return Number(entry);
    } catch {
      // expected: it exited while we looked
    }
  }
  throw new Error(`no fake-tui with ${marker}`);
}

describe('a TUI client that waits for a person', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.engine.stopSwarm('s').catch(() => undefined);
    await h?.cleanup();
  });

  it('shows a dialog at start: needs_attention client_prompt_blocked with its last lines; tasks are refused', async () => {
    h = await makeScreenHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [fakeTuiAgent('a', ['--dialog-at-start'])] } });
    const status = await h.engine.getAgent('s', 'a');
    expect(status.state).toBe('needs_attention');
    expect(status.needs_attention).toEqual({
      reason: 'client_prompt_blocked',
      turn: null,
      details: { dialog: 'fake_dialog', stage: 'not_ready', last_lines: expect.arrayContaining([DIALOG_LINE]) },
    });
    const event = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_needs_attention', 'agent_needs_attention');
    expect(event.metadata).toMatchObject({
      reason: 'client_prompt_blocked',
      dialog: 'fake_dialog',
      last_lines: expect.arrayContaining([DIALOG_LINE]),
    });
    await expect(h.engine.sendTask('s', 'a', 'hello')).rejects.toEqual(expect.objectContaining({ code: 'needs_attention' }));
  });

  it('shows a dialog after a turn: the turn completed, then needs_attention with the dialog', async () => {
    h = await makeScreenHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [fakeTuiAgent('a', ['--prompt', '--dialog-after-turn'])] } });
    await h.engine.sendTask('s', 'a', 'first');
    await waitEvent(h.engine, 's', (e) => e.event_type === 'turn_completed', 'turn_completed');
    const held = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'needs_attention' ? st : undefined;
    }, 'needs_attention');
    expect(held.needs_attention).toEqual({
      reason: 'client_prompt_blocked',
      turn: null,
      details: { dialog: 'fake_dialog', last_lines: expect.arrayContaining([DIALOG_LINE]) },
    });
  });

  it('does not take the pasted turn: the turn fails (delivery_failed, client_prompt_blocked), the agent is held', async () => {
    h = await makeScreenHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [fakeTuiAgent('a', ['--prompt', '--ignore-enter'])] } });
    await h.engine.sendTask('s', 'a', 'hello');
    const failed = await waitEvent(h.engine, 's', (e) => e.event_type === 'turn_failed', 'turn_failed');
    expect(failed.metadata).toMatchObject({ error: 'delivery_failed', code: 'client_prompt_blocked' });
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'needs_attention' ? st : undefined;
    }, 'needs_attention');
    expect(status.needs_attention).toEqual({
      reason: 'client_prompt_blocked',
      turn: failed.metadata?.['turn'],
      details: {
        stage: 'enter_not_taken',
        last_lines: [expect.stringMatching(/^fake-tui ready/), expect.stringMatching(/^fake-tui> \[genswarms\] turn /)],
      },
    });
  });

  it('dies: failed with process_exited and its last lines', async () => {
    h = await makeScreenHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [fakeTuiAgent('a', ['--prompt', 'killed-marker'])] } });
    process.kill(fakeTuiPid('killed-marker'), 'SIGKILL');
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'a');
      return st?.state === 'failed' ? st : undefined;
    }, 'failed');
    expect(status.failure).toMatchObject({
      code: 'process_exited',
      details: { last_lines: expect.arrayContaining([expect.stringMatching(/^fake-tui>/)]) },
    });
    const event = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_failed', 'agent_failed');
    expect(event.metadata).toMatchObject({
      reason: 'process_exited',
      last_lines: expect.arrayContaining([expect.stringMatching(/^fake-tui>/)]),
    });
  });
});
