/** docs/cli.md exit codes. */
export const EXIT = {
  ok: 0,
  /** A server error other than 401, an invalid config, a local failure. */
  failed: 1,
  /** Bad arguments/flags, invalid GENSWARMS_URL. */
  usage: 2,
  /** Cannot reach the server (refused, DNS, 30 s timeout). */
  unreachable: 3,
  /** 401 `unauthorized` or `token_required`. */
  unauthorized: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure a command reports as `genswarms: <code>: <message>` before exiting with `exit`. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exit: ExitCode,
    /** Extra lines printed under the error line (e.g. validation issues), never secrets. */
    readonly details: readonly string[] = [],
    /** What failed, when the server named it (the agent of a plan refusal): printed before the code. */
    readonly subject?: string,
  ) {
    super(message);
    Object.defineProperty(this, 'name', { value: 'CliError', enumerable: false, configurable: true, writable: true });
  }
}
