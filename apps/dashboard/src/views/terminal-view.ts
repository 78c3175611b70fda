import { h } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Terminal } from '@xterm/xterm';
import { withAdoptedStyles } from '../lib/adopted-styles';
import { sanitizeTerminalLine } from '../lib/terminal-text';

/** Lines the terminal keeps. */
const SCROLLBACK_LINES = 2000;

/** Where the page sends output lines to (one terminal per agent page). */
export interface TerminalSink {
  write(line: string): void;
}

/**
 * A read-only xterm.js: `disableStdin`, no `onData` listener and no socket event that could carry input, so
 * nothing typed in the page reaches the pane. Output lines are sanitised first (terminal-text.ts).
 */
export function TerminalView(props: { sink: { current: TerminalSink | undefined }; label: string }): JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (el === null) return undefined;
    const term = new Terminal({
      disableStdin: true,
      cursorBlink: false,
      cursorStyle: 'underline',
      scrollback: SCROLLBACK_LINES,
      rows: 20,
      cols: 100,
      convertEol: true,
      screenReaderMode: false,
    });
    withAdoptedStyles(document, () => term.open(el));
    term.textarea?.setAttribute('aria-label', `${props.label} (read-only)`);
    term.textarea?.setAttribute('readonly', 'true');
    props.sink.current = { write: (line) => term.write(`${sanitizeTerminalLine(line)}\r\n`) };
    return () => {
      props.sink.current = undefined;
      term.dispose();
    };
  }, []);
  return h('div', { class: 'terminal', id: 'terminal', ref: host });
}
