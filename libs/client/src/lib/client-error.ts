import type { ApiErrorCode } from './generated/api-types';

/** Codes the client itself raises (no answer from the server, or an answer that is not the API's). */
export type LocalErrorCode = 'network_error' | 'invalid_response' | 'connect_failed' | 'timeout';

/** Every code a {@link ClientError} may carry: the server's (docs/rest-api.md) and the client's own. */
export type ClientErrorCode = ApiErrorCode | LocalErrorCode | 'not_joined';

/**
 * The client's one error class. `code` is the server's `error` field (or a local code), `status` the
 * HTTP status (0 when there was no answer), `details` the other fields of the error body. Branch on
 * `.code`, never on `.message`.
 */
export class ClientError<Code extends string = ClientErrorCode> extends Error {
  readonly code: Code;
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>>;
  /** The answer's text exactly as the server sent it (undefined when there was no answer). */
  readonly text?: string;

  constructor(code: Code, message: string, opts: { status?: number; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    Object.defineProperty(this, 'name', { value: 'ClientError', enumerable: false });
    this.code = code;
    this.status = opts.status ?? 0;
    this.details = opts.details ?? {};
  }
}

/** Whether `err` is a ClientError, optionally with one of `codes`. */
export function isClientError<Code extends ClientErrorCode>(err: unknown, ...codes: Code[]): err is ClientError<Code> {
  return err instanceof ClientError && (codes.length === 0 || codes.includes(err.code as Code));
}

/** A ClientError from an error body (`{error, message, ...details}`), or `invalid_response` when it is not one. */
export function errorFromBody(status: number, body: unknown): ClientError {
  if (body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const { error, message, ...details } = body as { error: string; message?: unknown };
    return new ClientError(error as ClientErrorCode, typeof message === 'string' ? message : error, { status, details });
  }
  return new ClientError('invalid_response', `HTTP ${status} without an error body`, { status });
}
