import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is emitted in pieces (a pane cannot grow our memory unbounded). */
export const OUTPUT_LINE_MAX_CHARS = 8192;

// CSI, OSC (BEL or ST terminated), other two-byte ESC sequences, then stray controls but TAB.
// eslint-disable-next-line no-control-regex -- stripping terminal escapes is the point
const ESCAPES_RE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

/** Removes terminal escape sequences and control characters from one line of pane output. */
export function stripTerminalEscapes(line: string): string {
  return line.replace(ESCAPES_RE, '');
}

/** Turns raw pane bytes into text lines (UTF-8 across chunk boundaries, CR and escapes removed). */
export class OutputLineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  constructor(private readonly emit: (line: string) => void) {}

  push(chunk: Buffer): void {
    const text = this.partial + this.decoder.write(chunk);
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const part of parts) this.emitLine(part);
    while (this.partial.length > OUTPUT_LINE_MAX_CHARS) {
      this.emitLine(this.partial.slice(0, OUTPUT_LINE_MAX_CHARS));
      this.partial = this.partial.slice(OUTPUT_LINE_MAX_CHARS);
    }
  }

  /** Emits what is left (at exit). */
  flush(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest !== '') this.emitLine(rest);
  }

  private emitLine(raw: string): void {
    const line = stripTerminalEscapes(raw);
    if (line.trim() !== '') this.emit(line);
  }
}
