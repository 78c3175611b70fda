import { normalizeToken } from '@genswarms/security';
import { ClientError, GenswarmsClient } from '@genswarms/client';
import type { CallArgs, OperationId, ResponseOf } from '@genswarms/client';
import { CliError, EXIT } from '../cli/exit-codes';
import { checkBaseUrl } from './base-url-check';

/** Default server URL (docs/cli.md). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4000';
/** Requests give up after 30 s (→ exit 3). */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * GENSWARMS_URL: unset → default; must be an http/https URL with a host and without credentials,
 * query or fragment; one trailing `/` removed. Invalid → CliError exit 2.
 */
export function parseBaseUrl(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_BASE_URL;
  const url = checkBaseUrl(raw);
  if (url === undefined)
    throw new CliError('invalid_url', 'GENSWARMS_URL must be an http or https URL without credentials, query or fragment', EXIT.usage);
  return url;
}

/** A success: the typed body and the answer's text, unchanged for `--json`. */
export interface ApiAnswer<Op extends OperationId> {
  readonly body: ResponseOf<Op>;
  readonly text: string;
}

/** The CLI's side of `@genswarms/client`: one typed operation per call, every call bounded by the request timeout. */
export interface ApiClient {
  readonly baseUrl: string;
  /** How long one request may take (ms) unless the caller passes its own `signal`. */
  readonly timeoutMs: number;
  /**
   * Resolves to the answer; rejects with the client's ClientError (server code) or a CliError `unreachable` (exit 3).
   * With `args.signal` the caller bounds the request instead of the timeout (a start waited for while the server is alive).
   */
  call<Op extends OperationId>(op: Op, args: CallArgs<Op>): Promise<ApiAnswer<Op>>;
  /** As `call`, resolving to the success text unparsed. */
  callText<Op extends OperationId>(op: Op, args: CallArgs<Op>): Promise<string>;
}

/** The low-level reason a fetch failed (`ECONNREFUSED`, `TimeoutError`, …), for the `unreachable` line. */
function networkCause(err: ClientError): string {
  const cause: unknown = err.cause;
  if (!(cause instanceof Error)) return 'error';
  const inner: unknown = cause.cause;
  if (inner instanceof Error && 'code' in inner && typeof inner.code === 'string') return inner.code;
  return cause.name;
}

/**
 * `Authorization: Bearer <token>` only when the token is set and non-empty (verbatim); never printed.
 * Network failures (refused, DNS, timeout) throw CliError exit 3.
 */
export function createApiClient(opts: {
  baseUrl: string;
  token: string | undefined;
  timeoutMs?: number;
  /** Where baseUrl came from, named in the `unreachable` error (e.g. `URL from GENSWARMS_URL`). */
  source?: string;
}): ApiClient {
  const client = new GenswarmsClient({ baseUrl: opts.baseUrl, token: normalizeToken(opts.token) });
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const from = opts.source === undefined ? '' : `; ${opts.source}`;
  /** A network failure (no answer, or none within the timeout) → `unreachable`, exit 3; anything else as it is. */
  const unreachable = (err: unknown): unknown =>
    err instanceof ClientError && err.code === 'network_error'
      ? new CliError('unreachable', `cannot reach ${opts.baseUrl} (${networkCause(err)}${from})`, EXIT.unreachable)
      : err;
  return {
    baseUrl: opts.baseUrl,
    timeoutMs,
    call: (op, args) =>
      client
        .callWithText(op, { ...args, signal: args.signal ?? AbortSignal.timeout(timeoutMs) })
        .catch((err: unknown) => Promise.reject(unreachable(err))),
    callText: (op, args) =>
      client.callText(op, { ...args, signal: AbortSignal.timeout(timeoutMs) }).catch((err: unknown) => Promise.reject(unreachable(err))),
  };
}
