/* eslint-disable no-control-regex -- this file exists to match control characters */
/**
 * What an agent's pane or output stream may do in the browser terminal: print text and 16-colour SGR.
 * Every other escape (OSC titles, hyperlinks and clipboard, cursor moves, mode switches, truecolour) is
 * dropped, so agent output cannot drive the terminal or the page.
 */
const SAFE_SGR = new Set([0, 1, 2, 3, 4, 7, 22, 23, 24, 27, 39, 49]);

function isSafeSgr(params: string): boolean {
  if (params === '') return true;
  return params.split(';').every((p) => {
    if (!/^[0-9]{1,3}$/.test(p)) return false;
    const n = Number(p);
    return SAFE_SGR.has(n) || (n >= 30 && n <= 37) || (n >= 40 && n <= 47) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107);
  });
}

const ESCAPES =
  /\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-9;?]*[@-~]/g;
const OTHER_CONTROLS = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

/** One output line, made safe to write to xterm.js (no CR/LF inside: the caller ends the line). */
export function sanitizeTerminalLine(line: string): string {
  const kept = line
    .replace(/\uE000/g, '')
    .replace(ESCAPES, (whole, params: string | undefined, final: string | undefined) =>
      final === 'm' && params !== undefined && isSafeSgr(params) ? whole : '',
    );
  // ESC survives only inside the kept SGR sequences; mark them, drop every other control, unmark.
  return kept
    .replace(/\x1b\[/g, '\uE000')
    .replace(OTHER_CONTROLS, '')
    .replace(/\uE000/g, '\x1b[');
}
