import { authHeaders } from './session';

/** An API refusal (docs/rest-api.md error body); `code` is the server's `error`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** Called on every 401: the app returns to the login with the code. */
let onUnauthorized: (code: string) => void = () => undefined;
export function setUnauthorizedHandler(handler: (code: string) => void): void {
  onUnauthorized = handler;
}

/** A refusal seen elsewhere (the socket handshake): same path as a REST 401. */
export function reportDenied(code: string): void {
  onUnauthorized(code);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The dashboard's small fetch wrapper (same origin, Bearer from sessionStorage, JSON in and out). A
 * non-2xx answer throws `ApiError` with the body's `error` code.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
  });
  // expected: a body that is not JSON (a proxy's error page) leaves only the status to report
  const parsed: unknown = await res.json().catch(() => ({}));
  const data = isRecord(parsed) ? parsed : {};
  if (res.ok) return data as T;
  const code = typeof data['error'] === 'string' ? data['error'] : `http_${res.status}`;
  const message = typeof data['message'] === 'string' ? data['message'] : res.statusText;
  if (res.status === 401) onUnauthorized(code);
  throw new ApiError(res.status, code, message, data);
}

/** `/api/swarms/<s>[/agents/<a>]…` with every name encoded. */
export function swarmPath(swarm: string, ...rest: string[]): string {
  return ['/api/swarms', swarm, ...rest].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
}
