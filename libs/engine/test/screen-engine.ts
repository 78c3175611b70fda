/**
 * Shared by the engine's TUI-client specs: a harness whose tmux runner gives `command` clients the screen rules of
 * tools/bin/fake-tui.js in prompt mode (its header lists the options), and a fake-tui agent.
 */
import { createTmuxRunner, type ClientScreenRules, type RunnerRegistry } from '@genswarms/runners';
import * as path from 'node:path';
import { makeHarness, type Harness } from './harness';

export const FAKE_TUI = path.resolve(__dirname, '..', '..', '..', 'tools', 'bin', 'fake-tui.js');

const FAKE_TUI_SCREEN: ClientScreenRules = {
  client: 'fake-tui',
  ready: [/^fake-tui> ?$/m],
  busy: [/esc to interrupt/],
  dialogs: [{ name: 'fake_dialog', pattern: /Allow this action\?/ }],
  pastePlaceholder: /\[Pasted \d+ lines\]/,
  settleMs: 200,
  readyTimeoutMs: 8_000,
  pasteShownTimeoutMs: 3_000,
  enterTakenTimeoutMs: 1_500,
};

/** An engine whose tmux runner drives `command` agents by FAKE_TUI_SCREEN. */
export function makeScreenHarness(): Promise<Harness> {
  const tmux = createTmuxRunner({ screens: (client) => (client === 'command' ? FAKE_TUI_SCREEN : undefined) });
  return makeHarness({
    runners: (real): RunnerRegistry => ({
      get: (kind) => (kind === 'tmux' ? tmux : real.get(kind)),
      has: (kind) => kind === 'tmux' || real.has(kind),
      closeAll: async (mode) => {
        await tmux.close(mode);
        await real.closeAll(mode);
      },
    }),
  });
}

/** A tmux (runner none) agent running fake-tui with `options`. */
export function fakeTuiAgent(name: string, options: readonly string[]): Record<string, unknown> {
  return { name, backend: { type: 'tmux', runner: 'none' }, client: { command: [process.execPath, FAKE_TUI, ...options] } };
}
