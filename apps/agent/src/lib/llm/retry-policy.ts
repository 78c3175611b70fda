/** Requests per turn at most (1 + 3 retries). Many agents share one endpoint: few, spaced retries. */
export const LLM_RETRY_MAX_ATTEMPTS = 4;
/** First backoff step (ms); step n waits between half and all of `BASE * 2^n`. */
export const LLM_RETRY_BASE_DELAY_MS = 500;
/** Largest backoff step (ms). */
export const LLM_RETRY_MAX_DELAY_MS = 30_000;
/** A Retry-After longer than this (ms) is not waited for: the turn gets the error now. */
export const LLM_RETRY_AFTER_MAX_MS = 60_000;

/** 429 and the 5xx a later request can cure; 501/505 say the request can never work. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

const DELAY_SECONDS_RE = /^[0-9]{1,9}$/;
/** The HTTP-date forms: IMF-fixdate and RFC 850 (both say GMT), and asctime (GMT implied). */
const IMF_FIXDATE_RE = /^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;
const RFC850_DATE_RE = /^[A-Z][a-z]{5,8}, [0-9]{2}-[A-Z][a-z]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;
const ASCTIME_DATE_RE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$/;

/**
 * `Retry-After` as a wait in ms from `nowMs`: delay-seconds or an HTTP-date (a past date → 0).
 * Unparsable → undefined (the caller falls back to its own backoff).
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS_RE.test(text)) return Number(text) * 1000;
  let at = Number.NaN;
  if (IMF_FIXDATE_RE.test(text) || RFC850_DATE_RE.test(text)) at = Date.parse(text);
  else if (ASCTIME_DATE_RE.test(text)) at = Date.parse(`${text} GMT`); // not the local time zone
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Exponential backoff with "equal jitter": retry n (0-based) waits in [cap/2, cap), cap = min(MAX, BASE·2^n). */
export function backoffDelayMs(retry: number, random: () => number): number {
  const cap = Math.min(LLM_RETRY_MAX_DELAY_MS, LLM_RETRY_BASE_DELAY_MS * 2 ** retry);
  return Math.floor(cap / 2 + random() * (cap / 2));
}

export interface RetryInput {
  /** Requests made so far in this turn (≥ 1). */
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;
  readonly nowMs: number;
  /** When the turn's time is up (epoch ms); undefined: no turn timeout. */
  readonly deadlineMs: number | undefined;
  readonly random: () => number;
}

export type RetryDecision = { kind: 'retry'; delayMs: number } | { kind: 'give_up'; reason: string };

/** Whether and when to retry a retryable failure. Retry-After is honoured (never retried earlier), plus jitter. */
export function decideRetry(input: RetryInput): RetryDecision {
  if (input.attempts >= LLM_RETRY_MAX_ATTEMPTS) return { kind: 'give_up', reason: 'the attempt limit' };
  if (input.retryAfterMs !== undefined && input.retryAfterMs > LLM_RETRY_AFTER_MAX_MS) {
    return { kind: 'give_up', reason: `Retry-After ${Math.ceil(input.retryAfterMs / 1000)} s exceeds ${LLM_RETRY_AFTER_MAX_MS / 1000} s` };
  }
  const backoff = backoffDelayMs(input.attempts - 1, input.random);
  // Jitter on top of Retry-After spreads the agents a shared endpoint told to come back at the same moment.
  const delayMs = input.retryAfterMs === undefined ? backoff : input.retryAfterMs + Math.floor(input.random() * LLM_RETRY_BASE_DELAY_MS);
  if (input.deadlineMs !== undefined && input.nowMs + delayMs >= input.deadlineMs)
    return { kind: 'give_up', reason: 'the turn ends first' };
  return { kind: 'retry', delayMs };
}
