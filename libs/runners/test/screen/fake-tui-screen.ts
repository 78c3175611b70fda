/** Screen rules of tools/bin/fake-tui.js in prompt mode (its header lists the options), for the runner specs. */
import type { ClientScreenRules } from '../../src/lib/client/screens/screen-rules';
import type { ScreenRulesResolver } from '../../src/lib/client/screens/client-screens';

export const FAKE_TUI_SCREEN: ClientScreenRules = {
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

/** `command` clients (fake-tui) get FAKE_TUI_SCREEN; the published clients keep their own. */
export const fakeTuiScreens: ScreenRulesResolver = (client) => (client === 'command' ? FAKE_TUI_SCREEN : undefined);
