/**
 * Internal failures of the engine's own loops (dispatch, turn, outbox poll, watchers, timers) are never
 * dropped: each is one log line and one `engine_error` event (docs/observability.md, "engine_error").
 * The failure is named by a code, never by a class name or a message.
 */

/** Where an internal failure happened: the `where` of an `engine_error` event. */
export type FailureSite =
  | 'dispatch'
  | 'turn'
  | 'turn_settle'
  | 'turn_timeout'
  | 'outbox_poll'
  | 'outbox_discard'
  | 'agent_exit'
  | 'agent_stop'
  | 'recovery'
  | 'isolation_check'
  | 'llm_meter'
  | 'client_screen'
  | 'git_changes';

/** The sink of engine log lines; a winston logger fits (`logger.error(message, meta)`). */
export interface EngineLog {
  error(message: string, meta: Record<string, unknown>): void;
}

/** A failure code is a short token; anything else (no code, a message, a class name) is `internal_error`. */
const CODE_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Characters of an error message kept in the log line (never in the event). */
const LOG_DETAIL_MAX_CHARS = 200;

/**
 * The code of a failure: the error's own `code` (RunnerError, EngineError, ReceiptError, errno, SQLite)
 * lower-cased (`ENOENT` → `enoent`, `SQLITE_BUSY` → `sqlite_busy`), else `internal_error`.
 */
export function failureCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CODE_RE.test(code) ? code.toLowerCase() : 'internal_error';
}

/** The default sink: one JSON line on stderr. */
export const STDERR_LOG: EngineLog = {
  error(message, meta) {
    process.stderr.write(`${JSON.stringify({ level: 'error', message, ...meta, timestamp: new Date().toISOString() })}\n`);
  },
};

export interface FailureInput {
  readonly where: FailureSite;
  readonly swarm: string | null;
  readonly agent: string | null;
  readonly error: unknown;
  /** Safe extra fields (turn id, object name); never contents or paths. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The log line of a failure: where, code, scope, and the first characters of the message. */
export function failureLogMeta(input: FailureInput): Record<string, unknown> {
  const detail = input.error instanceof Error ? input.error.message.slice(0, LOG_DETAIL_MAX_CHARS) : undefined;
  return {
    where: input.where,
    code: failureCode(input.error),
    swarm: input.swarm,
    agent: input.agent,
    ...input.metadata,
    ...(detail === undefined ? {} : { detail }),
  };
}
