import { requestChatCompletion } from './chat-client';
import type { ChatRequest, ChatResult } from './chat-client';
import { decideRetry, isRetryableStatus, parseRetryAfterMs } from './retry-policy';

export interface RetryOptions {
  /** When the turn's time is up (epoch ms); no retry wait may reach past it. Undefined: no turn timeout. */
  readonly deadlineMs?: number;
  /** Injectable for tests of the policy; defaults to Math.random / Date.now. */
  readonly random?: () => number;
  readonly now?: () => number;
  /** Told before each wait (one log line); never given a key. */
  readonly onRetry?: (line: string) => void;
}

/**
 * One completion, retried on 429 and retryable 5xx with exponential backoff and jitter, honouring
 * `Retry-After`; bounded by LLM_RETRY_MAX_ATTEMPTS and the turn's deadline. Anything else (network
 * error, timeout, 4xx, bad JSON) is returned at once. Aborting the signal ends a wait as `aborted`.
 */
export async function requestChatWithRetry(req: ChatRequest, options: RetryOptions = {}): Promise<ChatResult> {
  const now = options.now ?? Date.now;
  for (let attempts = 1; ; attempts += 1) {
    const result = await requestChatCompletion(req);
    if (result.kind !== 'error' || result.http === undefined || !isRetryableStatus(result.http.status)) return result;
    const decision = decideRetry({
      attempts,
      retryAfterMs: parseRetryAfterMs(result.http.retryAfter, now()),
      nowMs: now(),
      deadlineMs: options.deadlineMs,
      random: options.random ?? Math.random,
    });
    if (decision.kind === 'give_up') {
      return { ...result, error: `${result.error} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${decision.reason})` };
    }
    options.onRetry?.(`llm answered HTTP ${result.http.status}; retry ${attempts} in ${decision.delayMs}ms`);
    if (!(await sleepUnlessAborted(decision.delayMs, req.signal))) return { kind: 'aborted' };
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts (the timer is cleared). */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
