import type { ClientScreenRules } from './screen-rules';

/**
 * Claude Code 2.1.328 in a 160×48 pane (docs/clients.md "Pane mode"): an empty `❯` line between two rules, the
 * mode footer (`(shift+tab to cycle)`, or `? for shortcuts` without a mode); `esc to interrupt` during a turn.
 * Its dialogs end with a `… · Esc to cancel` footer and put `❯` on the selected choice.
 */
export const CLAUDE_SCREEN: ClientScreenRules = {
  client: 'claude',
  // the empty prompt line holds a no-break space: `[^\S\n]` is any blank but the newline
  ready: [/^❯[^\S\n]*\n─{3}/m, /\(shift\+tab to cycle\)|\? for shortcuts/],
  busy: [/esc to interrupt/],
  dialogs: [
    { name: 'claude_trust_folder', pattern: /Yes, I trust this folder/ },
    { name: 'claude_api_key', pattern: /Do you want to use this API key\?/ },
    { name: 'claude_auto_mode_offer', pattern: /Make auto mode your default permission mode\?/ },
    { name: 'claude_auto_mode_unavailable', pattern: /Auto mode can't check actions/ },
    { name: 'claude_permission', pattern: /Do you want to proceed\?/ },
    { name: 'claude_choice', pattern: /(Enter to confirm|↑\/↓ to choose|Tab to amend) · |· Esc to cancel/ },
  ],
  pastePlaceholder: /\[Pasted text #\d+/,
  settleMs: 800,
  readyTimeoutMs: 60_000,
};
