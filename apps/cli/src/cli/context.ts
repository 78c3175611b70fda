import type { Writable } from 'node:stream';

/** The process edge of the CLI, injectable for tests. `env` is read here and nowhere else. */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Absolute path of the server entry (`apps/server/dist/main.js`); resolved lazily by `up`. */
  readonly serverMain?: string;
  /** Forward these signals to a foreground server (tests pass a fake emitter). */
  readonly signals?: NodeJS.EventEmitter;
}

/** Writes one line. */
export function writeLine(stream: Writable, line: string): void {
  stream.write(`${line}\n`);
}
