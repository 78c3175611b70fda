import type * as Headless from '@xterm/headless';

/** Lines of scrollback the headless terminal keeps behind a pty client's screen. */
export const PTY_SCROLLBACK_LINES = 1000;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * A pty client's screen, kept by a headless terminal emulator (@xterm/headless) fed with everything the client
 * writes: what tmux is for a pane. It also answers the client's terminal queries (cursor position, device
 * attributes) through `reply`, as a real terminal would; a TUI that asks and gets no answer may wait for it.
 */
export class PtyScreen {
  private readonly term: Headless.Terminal;

  constructor(cols: number, rows: number, reply: (data: string) => void) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the first pty client, never by the runners barrel
    const { Terminal } = require('@xterm/headless') as typeof Headless;
    this.term = new Terminal({ cols, rows, scrollback: PTY_SCROLLBACK_LINES, allowProposedApi: true });
    this.term.onData(reply);
  }

  write(data: string): void {
    this.term.write(data);
  }

  /** Resolves once everything written so far is parsed (the emulator parses in chunks, off the write call). */
  private flushed(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** The visible screen, one string per row (what screen rules read). */
  async visible(): Promise<readonly string[]> {
    await this.flushed();
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = buffer.baseY; y < buffer.baseY + this.term.rows; y += 1) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines;
  }

  /** Scrollback and screen (of the buffer in use: a full-screen client's alternate screen has no scrollback). */
  async all(): Promise<readonly string[]> {
    await this.flushed();
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y += 1) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines;
  }

  /**
   * `text` as a terminal pastes it: newlines as CR, inside ESC[200~ … ESC[201~ when the client turned bracketed
   * paste on (the text is already free of ESC: tmux/turn-text.ts), else bare.
   */
  pasteBytes(text: string): string {
    const body = text.replace(/\r?\n/g, '\r');
    return this.term.modes.bracketedPasteMode ? `${PASTE_START}${body}${PASTE_END}` : body;
  }
}
