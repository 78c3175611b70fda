/** The newest output lines of an agent's process (`GET …/logs`), bounded in lines and characters. */
import { LOG_KEEP_CHARS, LOG_KEEP_LINES } from './session-host';

export interface LogLine {
  readonly timestamp: string;
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
}

export class OutputLog {
  readonly lines: LogLine[] = [];
  /** Characters of the lines in `lines`. */
  private chars = 0;

  /** Keeps at most LOG_KEEP_LINES lines and LOG_KEEP_CHARS characters (the newest line always). */
  keep(entry: LogLine): void {
    this.lines.push(entry);
    this.chars += entry.line.length;
    let drop = 0;
    while (drop < this.lines.length - 1 && (this.lines.length - drop > LOG_KEEP_LINES || this.chars > LOG_KEEP_CHARS)) {
      this.chars -= (this.lines[drop] as LogLine).line.length;
      drop += 1;
    }
    if (drop > 0) this.lines.splice(0, drop);
  }
}
