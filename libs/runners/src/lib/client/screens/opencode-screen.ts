import type { ClientScreenRules } from './screen-rules';

/**
 * OpenCode 1.18.33 in a 160×48 pane (docs/clients.md "Pane mode"): nothing for its first 2–5 s (keys typed then
 * are lost), then its input box with the `ctrl+p commands` footer; `esc interrupt` during a turn. It folds a
 * multi-line paste into `[Pasted ~N lines]`.
 */
export const OPENCODE_SCREEN: ClientScreenRules = {
  client: 'opencode',
  ready: [/ctrl\+p commands/],
  busy: [/esc interrupt/],
  dialogs: [{ name: 'opencode_permission', pattern: /Permission required|Allow once {2,}Allow always/ }],
  pastePlaceholder: /\[Pasted ~\d+ lines?\]/,
  settleMs: 500,
  readyTimeoutMs: 60_000,
};
