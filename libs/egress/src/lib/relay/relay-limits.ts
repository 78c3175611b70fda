/** Bounds of the metering relay (docs/security.md "Network isolation and egress"). Every one is enforced, never trusted. */

/** Largest request head (request line + headers + blank line) an agent may send, bytes; larger → 431 and close. */
export const REQUEST_HEAD_MAX_BYTES = 32 * 1024;
/** Most header lines in a request head. */
export const REQUEST_HEADERS_MAX = 100;
/** Longest request target (origin-form path and query), bytes. */
export const REQUEST_TARGET_MAX_BYTES = 8 * 1024;
/** Largest response head from the upstream, bytes; larger → the call fails closed. */
export const RESPONSE_HEAD_MAX_BYTES = 64 * 1024;
/** Longest chunk-size line (size + extensions), bytes. */
export const CHUNK_LINE_MAX_BYTES = 4096;
/** Largest chunked trailer section, bytes. */
export const TRAILERS_MAX_BYTES = 16 * 1024;
/** Largest Content-Length accepted either way (1 GiB): an LLM call is never larger. */
export const BODY_LENGTH_MAX_BYTES = 1024 * 1024 * 1024;
/** Connections one agent may hold open at once; more are closed on accept. */
export const RELAY_CONNECTIONS_MAX = 64;
/** One token count above this (per field, per response) is not believed: it is charged at this value (fail-closed). */
export const USAGE_TOKENS_MAX = 10_000_000;

/** Timeouts of one relay; tests shorten them. */
export interface RelayTimeouts {
  /** An agent connection that sends nothing for this long (between requests or mid-request) is closed, ms. */
  readonly clientIdleMs: number;
  /** A pending response that brings no byte for this long fails (`response_timeout`), ms. */
  readonly responseIdleMs: number;
  /** A response still streaming after this long fails (`response_timeout`): a response that never ends, ms. */
  readonly responseMaxMs: number;
  /** The upstream leg must connect within this, ms. */
  readonly connectMs: number;
}

export const DEFAULT_RELAY_TIMEOUTS: RelayTimeouts = {
  clientIdleMs: 5 * 60_000,
  responseIdleMs: 5 * 60_000,
  responseMaxMs: 30 * 60_000,
  connectMs: 10_000,
};
