import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLIENT_SCREENS } from '../../src/lib/client/screens/client-screens';
import { readScreen, showsPaste } from '../../src/lib/client/screens/screen-rules';
import type { CodingClientName } from '../../src/lib/client/coding-clients';

/** Screens of the published clients captured in a 160×48 tmux pane (`capture-pane -p -J`), docs/clients.md "Pane mode". */
function screen(name: string): string[] {
  return readFileSync(path.join(__dirname, 'fixtures', `${name}.txt`), 'utf8').split('\n');
}

const VERDICTS: ReadonlyArray<readonly [CodingClientName, string, ReturnType<typeof readScreen>]> = [
  ['codex', 'codex-loading', { kind: 'busy' }],
  ['codex', 'codex-ready', { kind: 'ready' }],
  ['codex', 'codex-pasted', { kind: 'starting' }],
  ['codex', 'codex-waiting-startup', { kind: 'busy' }],
  ['codex', 'codex-busy', { kind: 'busy' }],
  ['codex', 'codex-after-turn', { kind: 'ready' }],
  ['codex', 'codex-sign-in', { kind: 'dialog', name: 'codex_sign_in' }],
  ['codex', 'codex-background-server', { kind: 'dialog', name: 'codex_background_server' }],
  ['claude', 'claude-ready', { kind: 'ready' }],
  ['claude', 'claude-pasted', { kind: 'starting' }],
  ['claude', 'claude-busy', { kind: 'busy' }],
  ['claude', 'claude-after-turn', { kind: 'ready' }],
  ['claude', 'claude-trust-folder', { kind: 'dialog', name: 'claude_trust_folder' }],
  ['claude', 'claude-auto-mode-offer', { kind: 'dialog', name: 'claude_auto_mode_offer' }],
  ['claude', 'claude-auto-mode-unavailable', { kind: 'dialog', name: 'claude_auto_mode_unavailable' }],
  ['claude', 'claude-permission', { kind: 'dialog', name: 'claude_permission' }],
  ['opencode', 'opencode-ready', { kind: 'ready' }],
  ['opencode', 'opencode-busy', { kind: 'busy' }],
  ['opencode', 'opencode-after-turn', { kind: 'ready' }],
  ['opencode', 'opencode-permission', { kind: 'dialog', name: 'opencode_permission' }],
];

describe('screen rules of the published clients, on their measured screens', () => {
  it.each(VERDICTS)('%s: %s reads as %j', (client, name, verdict) => {
    expect(readScreen(CLIENT_SCREENS[client], screen(name))).toEqual(verdict);
  });

  it.each([
    ['codex', 'codex-ready', 'codex-pasted'],
    ['claude', 'claude-ready', 'claude-pasted'],
    ['opencode', 'opencode-ready', 'opencode-pasted'],
  ] as const)('%s: sees the paste of turn t1234 on its screen (text or placeholder)', (client, before, after) => {
    expect(showsPaste(CLIENT_SCREENS[client], 't1234', screen(before), screen(after))).toBe(true);
    expect(showsPaste(CLIENT_SCREENS[client], 't9999', screen(before), screen(before))).toBe(false);
  });

  it('never reads an empty screen (a client still starting) as ready', () => {
    for (const rules of Object.values(CLIENT_SCREENS)) expect(readScreen(rules, ['', '', ''])).toEqual({ kind: 'starting' });
  });

  it.each([
    ['a prompt inside pasted text', ['› 1. Sign in? no: ', '  ? for shortcuts']],
    ['__proto__ and regex syntax', ['__proto__', '.*', '(?:', '\u0000']],
  ])('does not throw on hostile screens (%s)', (_label, lines) => {
    for (const rules of Object.values(CLIENT_SCREENS)) expect(() => readScreen(rules, lines)).not.toThrow();
  });
});
