import type { LlmUsage } from './usage-tally';

/** What the relay knows of a request when it asks the meter: never a header value, a body or the query. */
export interface RelayRequest {
  readonly method: string;
  /** Path without its query (AUDIT_PATH_MAX_CHARS at most). */
  readonly path: string;
}

/** Why a request was not forwarded. */
export type RefusalKind = 'budget_exhausted' | 'rate_limited';

/** The meter's answer: forward the request (and later `settle` its ticket), or refuse it with 429. */
export type Admission =
  | { readonly kind: 'admit'; readonly ticket: unknown }
  | {
      readonly kind: 'refuse';
      readonly type: RefusalKind;
      /** Shown to the agent in the 429 body: which limit, never a count of another agent. */
      readonly message: string;
      /** Seconds until a retry can pass (rate limits, windowed budgets); absent when only an operator can help. */
      readonly retryAfterS?: number;
    };

/** How a forwarded call ended, when it did not end with a complete response. */
export type RelayFailure =
  'upstream_unreachable' | 'upstream_closed' | 'upstream_protocol' | 'response_timeout' | 'client_closed' | 'client_protocol';

/** The facts of one forwarded call, for usage, budgets and the audit trail. */
export interface RelayOutcome {
  /** The upstream's final status, or null when no response head arrived. */
  readonly status: number | null;
  readonly durationMs: number;
  /** Bytes of the request as sent upstream (head and body). */
  readonly bytesIn: number;
  /** Bytes of the response as relayed to the agent. */
  readonly bytesOut: number;
  /** The usage the response reported; null when none was read (not reported, another type, encoded). */
  readonly usage: LlmUsage | null;
  readonly failure: RelayFailure | null;
}

/** A request the relay refused before asking the meter (not HTTP/1.1, smuggling-shaped…): recorded, never forwarded. */
export interface RelayRejection {
  readonly method: string | null;
  readonly path: string | null;
  /** The HeadProblem or FramingProblem code. */
  readonly reason: string;
  readonly status: number;
}

/**
 * The port between the relay and whoever keeps the counts (the engine). Synchronous by design: the admission
 * decision and its charge happen before the relay writes a byte upstream. A throwing meter fails closed:
 * the request is answered 503 and never forwarded.
 */
export interface EgressMeter {
  admit(request: RelayRequest): Admission;
  settle(ticket: unknown, outcome: RelayOutcome): void;
  reject(rejection: RelayRejection): void;
}
