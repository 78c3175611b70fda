import type { Readable, Writable } from 'node:stream';
import type { ExecWithSecretsSpec } from '@genswarms/procctl';

/** The process edge of the CLI, injectable for tests. `env` is read here and nowhere else. */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Read by `task -` / `msg -` (default: nothing to read). */
  readonly stdin?: Readable;
  /** Ends follow modes (`logs -f`, `events -f`, headless `attach`) with exit 0; main wires SIGINT/SIGTERM. */
  readonly signal?: AbortSignal;
  /** Absolute path of the server entry (`apps/server/dist/main.js`); resolved lazily by `up`. */
  readonly serverMain?: string;
  /**
   * `up --foreground`: replaces this process with the server (procctl `execWithSecrets`). main wires
   * it; in-process runs (tests) leave it unset and `--foreground` is refused.
   */
  readonly replaceProcess?: (spec: ExecWithSecretsSpec) => never;
  /** How long one request may take before it counts as unanswered (default REQUEST_TIMEOUT_MS; specs use less). */
  readonly requestTimeoutMs?: number;
}

/** Writes one line. */
export function writeLine(stream: Writable, line: string): void {
  stream.write(`${line}\n`);
}
