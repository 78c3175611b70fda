import { normalizeToken } from '@genswarms/security';
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

/** An HTTP answer: the parsed JSON body (or undefined) and the raw text, unchanged for `--json`. */
export interface ApiResponse {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
}

export interface ApiClient {
  readonly baseUrl: string;
  request(method: string, path: string, body?: unknown): Promise<ApiResponse>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // expected: a body that is not JSON is passed on as undefined
    return undefined;
  }
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
  const token = normalizeToken(opts.token);
  return {
    baseUrl: opts.baseUrl,
    async request(method, path, body): Promise<ApiResponse> {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(`${opts.baseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
        const from = opts.source === undefined ? '' : `; ${opts.source}`;
        throw new CliError('unreachable', `cannot reach ${opts.baseUrl} (${cause}${from})`, EXIT.unreachable);
      }
      const text = await res.text();
      return { status: res.status, text, body: parseJson(text) };
    },
  };
}
