/**
 * What a TUI client's screen says about it (docs/clients.md "Pane mode"): one entry per client, read from the
 * visible screen as plain text (no escapes). Pure: the pane and pty drivers poll the screen and ask `readScreen`.
 */

/** A screen that waits for a person: its name goes into the attention details. */
export interface DialogRule {
  /** snake_case, stable: shown to operators (`codex_sign_in`, `claude_trust_folder`). */
  readonly name: string;
  readonly pattern: RegExp;
}

export interface ClientScreenRules {
  /** The client these rules were measured with (docs/clients.md), or a test client's name. */
  readonly client: string;
  /** Every pattern matches: the input prompt is up. */
  readonly ready: readonly RegExp[];
  /** Any pattern matches: the client is working on a turn (a paste now would be queued or lost). */
  readonly busy: readonly RegExp[];
  /** Any pattern matches: a dialog waits for a person; a paste (and its Enter) would answer it. Checked first. */
  readonly dialogs: readonly DialogRule[];
  /** The client folds a long paste into this placeholder instead of showing its text. */
  readonly pastePlaceholder?: RegExp;
  /** How long a ready (or dialog) screen must stay unchanged before it counts, in ms. */
  readonly settleMs: number;
  /** How long the client may take from its start to its first ready screen (and be busy before a paste), in ms. */
  readonly readyTimeoutMs: number;
  /** How long a paste may take to show on the screen, in ms (default PASTE_SHOWN_TIMEOUT_MS). */
  readonly pasteShownTimeoutMs?: number;
  /** How long the screen may stay unchanged after Enter before the Enter counts as not taken, in ms (default ENTER_TAKEN_TIMEOUT_MS). */
  readonly enterTakenTimeoutMs?: number;
}

/** Default of `pasteShownTimeoutMs`: the clients measured show a paste within 200 ms on an idle host. */
export const PASTE_SHOWN_TIMEOUT_MS = 10_000;
/** Default of `enterTakenTimeoutMs`. */
export const ENTER_TAKEN_TIMEOUT_MS = 15_000;

/** What one screen shows. `starting`: none of the rules matched yet (drawing, loading, an unknown screen). */
export type ScreenVerdict =
  | { readonly kind: 'dialog'; readonly name: string }
  | { readonly kind: 'busy' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'starting' };

/** The screen as one string: lines joined by `\n`, trailing blank lines dropped (patterns may anchor on the end). */
export function screenText(lines: readonly string[]): string {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(0, end).join('\n');
}

/** Dialogs first (a dialog over a busy screen still waits for a person), then busy, then ready. */
export function readScreen(rules: ClientScreenRules, lines: readonly string[]): ScreenVerdict {
  const text = screenText(lines);
  const dialog = rules.dialogs.find((d) => d.pattern.test(text));
  if (dialog !== undefined) return { kind: 'dialog', name: dialog.name };
  if (rules.busy.some((p) => p.test(text))) return { kind: 'busy' };
  if (rules.ready.length > 0 && rules.ready.every((p) => p.test(text))) return { kind: 'ready' };
  return { kind: 'starting' };
}

/** The first line of the delivery text (docs/messaging.md) as the client shows it once pasted. */
export function pasteMarker(turnId: string): string {
  return `[genswarms] turn ${turnId} `;
}

/**
 * True when the screen shows the pasted turn: its first line, or (a client that folds pastes) more
 * placeholders than the screen before the paste had.
 */
export function showsPaste(rules: ClientScreenRules, turnId: string, before: readonly string[], now: readonly string[]): boolean {
  const text = screenText(now);
  if (text.includes(pasteMarker(turnId))) return true;
  const placeholder = rules.pastePlaceholder;
  if (placeholder === undefined) return false;
  return countMatches(placeholder, text) > countMatches(placeholder, screenText(before));
}

function countMatches(pattern: RegExp, text: string): number {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return [...text.matchAll(global)].length;
}
