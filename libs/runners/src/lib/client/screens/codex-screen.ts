import type { ClientScreenRules } from './screen-rules';

/**
 * Codex 0.169 in a 160×48 pane (docs/clients.md "Pane mode"): its composer `› Ask Codex to do anything` with the
 * footer `? for shortcuts` (gone while the composer holds text); `Working (… esc to interrupt)` during a turn.
 */
export const CODEX_SCREEN: ClientScreenRules = {
  client: 'codex',
  ready: [/^› /m, /\? for shortcuts/],
  // `loading` under its banner: the composer is drawn before the session is (not ready yet)
  busy: [/esc to interrupt/, /Waiting for startup/, /^ +loading *$/m],
  dialogs: [
    { name: 'codex_sign_in', pattern: /Sign in with ChatGPT|Choose how you want to use Codex/ },
    // CLI `--disable` feature flags that differ from its background server's settings (set them in config.toml)
    { name: 'codex_background_server', pattern: /Background server has incompatible feature settings/ },
    { name: 'codex_trust_folder', pattern: /Do you trust the contents of this directory/ },
    { name: 'codex_press_enter', pattern: /Press enter to (continue|confirm)/ },
  ],
  pastePlaceholder: /\[Pasted Content \d+ chars\]/,
  settleMs: 500,
  readyTimeoutMs: 60_000,
};
