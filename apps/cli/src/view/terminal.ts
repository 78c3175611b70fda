import type { Writable } from 'node:stream';

/** Width assumed for a TTY that does not report one. */
export const DEFAULT_TERMINAL_COLUMNS = 80;

/** How human output is laid out: a TTY gets colour and lines cut to its width; a pipe gets plain, whole lines. */
export interface Terminal {
  readonly tty: boolean;
  /** The TTY's width; undefined when piped (lines are never cut). */
  readonly columns: number | undefined;
  readonly color: boolean;
}

/** `NO_COLOR` (any non-empty value) or `TERM=dumb` turns colour off on a TTY too (no-color.org). */
export function terminalOf(stream: Writable, env: Readonly<Record<string, string | undefined>>): Terminal {
  const s = stream as Writable & { isTTY?: boolean; columns?: number };
  if (s.isTTY !== true) return { tty: false, columns: undefined, color: false };
  const columns = typeof s.columns === 'number' && s.columns > 0 ? s.columns : DEFAULT_TERMINAL_COLUMNS;
  const noColor = (env['NO_COLOR'] ?? '') !== '' || env['TERM'] === 'dumb';
  return { tty: true, columns, color: !noColor };
}

/** SGR colours the views use. */
export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'dim' | 'bold';
const SGR: Readonly<Record<Colour, string>> = {
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
  dim: '2',
  bold: '1',
};

/** `text` in `colour` when the terminal has colour, else unchanged. */
export function paint(term: Terminal, colour: Colour | undefined, text: string): string {
  return term.color && colour !== undefined ? `\u001b[${SGR[colour]}m${text}\u001b[0m` : text;
}

/** Moves the cursor home and clears the screen (a live view redraws in place). */
export const CLEAR_SCREEN = '\u001b[H\u001b[2J';
/** Returns to the start of the line and clears it (a progress line updated in place). */
export const CLEAR_LINE = '\r\u001b[2K';
