import type { TurnDelivery } from '../port';
import { formatTuiDelivery } from '../client/tui-delivery';

/**
 * Control characters other than LF and TAB are replaced by U+FFFD before pasting: pasted text must
 * stay text. An ESC in a message could otherwise close the bracketed paste (`ESC[201~`) and turn
 * the rest of the message into keystrokes of the coding client.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CONTROLS_RE = /[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

/** Replaces terminal control characters (kept: `\n`, `\t`) with U+FFFD. */
export function neutralizeControls(text: string): string {
  return text.replace(UNSAFE_CONTROLS_RE, '\uFFFD');
}

/**
 * docs/messaging.md TUI delivery text (`formatTuiDelivery`), with terminal controls neutralized in
 * every interpolated field.
 */
export function buildTuiTurnText(turn: TurnDelivery): string {
  return formatTuiDelivery({
    ...turn,
    turnId: neutralizeControls(turn.turnId),
    from: neutralizeControls(turn.from),
    content: neutralizeControls(turn.content),
    clientTurnsDir: neutralizeControls(turn.clientTurnsDir),
  });
}
