import type { OutputStream } from '../port';

/** Lines kept for diagnostics (a crashed client's last words). */
export const LAST_LINES_KEPT = 200;
/** Characters kept of them: 200 lines of 64 Ki characters would be 12.5 MiB per agent (one-line flood). */
export const LAST_CHARS_KEPT = 65_536;
/** A line longer than this is emitted in pieces, so a client cannot grow host memory unboundedly. */
export const MAX_LINE_CHARS = 65536;

type OutputListener = (stream: OutputStream, line: string) => void;
type ExitListener = (code: number | null, signal: string | null) => void;

/** Splits a text stream into lines (without `\n`/`\r`), bounded per line. */
export class LineBuffer {
  private rest = '';

  push(chunk: string): string[] {
    const parts = (this.rest + chunk).split('\n');
    this.rest = parts.pop() ?? '';
    const lines = parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    while (this.rest.length > MAX_LINE_CHARS) {
      lines.push(this.rest.slice(0, MAX_LINE_CHARS));
      this.rest = this.rest.slice(MAX_LINE_CHARS);
    }
    return lines;
  }

  flush(): string | undefined {
    const rest = this.rest;
    this.rest = '';
    return rest.length > 0 ? rest : undefined;
  }
}

/** Listener fan-out for output lines and the single exit, plus the last lines kept. */
export class OutputHub {
  private readonly outputs = new Set<OutputListener>();
  private readonly exits = new Set<ExitListener>();
  private readonly last: string[] = [];
  private lastChars = 0;
  private exitInfo: { code: number | null; signal: string | null } | undefined;
  private resolveExit: () => void = () => undefined;
  readonly exitedPromise: Promise<void> = new Promise((resolve) => {
    this.resolveExit = resolve;
  });

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  emitLine(stream: OutputStream, line: string): void {
    this.last.push(line);
    this.lastChars += line.length;
    while (this.last.length > 1 && (this.last.length > LAST_LINES_KEPT || this.lastChars > LAST_CHARS_KEPT)) {
      this.lastChars -= (this.last.shift() as string).length;
    }
    for (const listener of this.outputs) listener(stream, line);
  }

  emitExit(code: number | null, signal: string | null): void {
    if (this.exitInfo !== undefined) return;
    this.exitInfo = { code, signal };
    for (const listener of this.exits) listener(code, signal);
    this.resolveExit();
  }

  addOutput(listener: OutputListener): () => void {
    this.outputs.add(listener);
    return () => this.outputs.delete(listener);
  }

  /** A listener added after the exit is called at once: a crash is never missed. */
  addExit(listener: ExitListener): () => void {
    if (this.exitInfo !== undefined) {
      listener(this.exitInfo.code, this.exitInfo.signal);
      return () => undefined;
    }
    this.exits.add(listener);
    return () => this.exits.delete(listener);
  }

  lastLines(): readonly string[] {
    return [...this.last];
  }
}
