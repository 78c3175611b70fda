import type { HeadProblem } from './request-head';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
};

/** Error types the relay itself answers with (the `error.type` of an OpenAI-style body). */
export type RelayErrorType = 'budget_exhausted' | 'rate_limited' | 'invalid_request' | 'upstream_unavailable' | 'meter_unavailable';

/**
 * A response the relay writes itself, with an OpenAI-style body `{"error":{message,type,param,code}}` so
 * that SDKs surface it (a 429 is retried by them after `Retry-After`). Never echoes anything the agent sent.
 */
export function relayAnswer(
  status: number,
  type: RelayErrorType,
  message: string,
  opts: { readonly retryAfterS?: number; readonly close: boolean },
): Buffer {
  const body = JSON.stringify({ error: { message, type, param: null, code: type } });
  const retry = opts.retryAfterS === undefined ? '' : `Retry-After: ${Math.max(1, Math.ceil(opts.retryAfterS))}\r\n`;
  const head =
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${retry}Connection: ${opts.close ? 'close' : 'keep-alive'}\r\n\r\n`;
  return Buffer.from(head + body, 'utf8');
}

/** The status a refused request head is answered with. */
export function statusOfProblem(problem: HeadProblem): number {
  switch (problem) {
    case 'head_too_large':
      return 431;
    case 'not_http_1_1':
      return 505;
    case 'method_not_allowed':
      return 405;
    case 'bad_request_line':
    case 'bad_target':
    case 'bad_header':
    case 'too_many_headers':
    case 'missing_host':
    case 'duplicate_host':
    case 'bad_content_length':
    case 'content_length_and_transfer_encoding':
    case 'bad_transfer_encoding':
    case 'upgrade_refused':
      return 400;
  }
}
