import { ClientError, GenswarmsClient } from '@genswarms/client';
import type { CallArgs, OperationId, ResponseOf } from '@genswarms/client';
import { readToken } from './session';

export { ClientError };

/** Called on every 401: the app returns to the login with the code. */
let onUnauthorized: (code: string) => void = () => undefined;
export function setUnauthorizedHandler(handler: (code: string) => void): void {
  onUnauthorized = handler;
}

/** A refusal seen elsewhere (the socket handshake): same path as a REST 401. */
export function reportDenied(code: string): void {
  onUnauthorized(code);
}

/** Same origin, never a cookie or a cached answer: the token goes only as `Authorization: Bearer`. */
const pageFetch: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'omit', cache: 'no-store', redirect: 'error' });

/**
 * One call of the typed client (`@genswarms/client`, generated from the server's OpenAPI document) with
 * the token from sessionStorage. A refusal rejects with `ClientError` (`code` = the server's `error`);
 * a 401 also returns the app to the login.
 */
export async function call<Op extends OperationId>(op: Op, args?: CallArgs<Op>): Promise<ResponseOf<Op>> {
  const token = readToken();
  const client = new GenswarmsClient({ baseUrl: location.origin, token: token === '' ? undefined : token, fetch: pageFetch });
  try {
    return await (client.call as (o: Op, a?: CallArgs<Op>) => Promise<ResponseOf<Op>>)(op, args);
  } catch (err) {
    if (err instanceof ClientError && err.status === 401) onUnauthorized(err.code);
    throw err;
  }
}
