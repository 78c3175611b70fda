import {
  LLM_RETRY_AFTER_MAX_MS,
  LLM_RETRY_BASE_DELAY_MS,
  LLM_RETRY_MAX_ATTEMPTS,
  LLM_RETRY_MAX_DELAY_MS,
  backoffDelayMs,
  decideRetry,
  isRetryableStatus,
  parseRetryAfterMs,
} from './retry-policy';

const NOW = Date.parse('2026-12-01T10:00:00Z');

describe('LLM retry policy', () => {
  test.each([
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [501, false],
    [505, false],
    [400, false],
    [401, false],
    [404, false],
    [413, false],
  ])('HTTP %i is retryable: %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  test.each([
    ['delay-seconds', '7', 7000],
    ['zero seconds', '0', 0],
    ['seconds with surrounding spaces', ' 3 ', 3000],
    ['IMF-fixdate in the future', 'Tue, 01 Dec 2026 10:00:05 GMT', 5000],
    ['IMF-fixdate in the past', 'Tue, 01 Dec 2026 09:59:00 GMT', 0],
    ['RFC 850 date', 'Tuesday, 01-Dec-26 10:00:02 GMT', 2000],
    ['asctime date (GMT implied)', 'Tue Dec  1 10:00:09 2026', 9000],
    ['negative seconds', '-5', undefined],
    ['fractional seconds', '1.5', undefined],
    ['a date without GMT', 'Tue, 01 Dec 2026 10:00:05 +0100', undefined],
    ['an ISO date', '2026-12-01T10:00:05Z', undefined],
    ['garbage', 'soon', undefined],
    ['empty', '', undefined],
    ['absent', undefined, undefined],
    ['too many digits', '1234567890', undefined],
  ])('Retry-After %s → %p ms', (_name, value, expected) => {
    expect(parseRetryAfterMs(value, NOW)).toBe(expected);
  });

  test.each([0, 1, 2, 3, 10, 40])('backoff step %i lies in [cap/2, cap] with cap = min(MAX, BASE·2^n)', (retry) => {
    const cap = Math.min(LLM_RETRY_MAX_DELAY_MS, LLM_RETRY_BASE_DELAY_MS * 2 ** retry);
    expect(backoffDelayMs(retry, () => 0)).toBe(cap / 2);
    expect(backoffDelayMs(retry, () => 0.999999)).toBeLessThanOrEqual(cap);
    expect(backoffDelayMs(retry, () => 0.999999)).toBeGreaterThan(cap / 2);
  });

  const base = { attempts: 1, retryAfterMs: undefined, nowMs: NOW, deadlineMs: undefined, random: (): number => 0 };

  test.each([
    ['first failure, no Retry-After: the first backoff step', base, { kind: 'retry', delayMs: LLM_RETRY_BASE_DELAY_MS / 2 }],
    ['second failure: the step doubles', { ...base, attempts: 2 }, { kind: 'retry', delayMs: LLM_RETRY_BASE_DELAY_MS }],
    ['Retry-After is waited for, never less', { ...base, retryAfterMs: 5000 }, { kind: 'retry', delayMs: 5000 }],
    ['the attempt bound', { ...base, attempts: LLM_RETRY_MAX_ATTEMPTS }, { kind: 'give_up', reason: 'the attempt limit' }],
    [
      'a Retry-After over the bound',
      { ...base, retryAfterMs: LLM_RETRY_AFTER_MAX_MS + 1000 },
      { kind: 'give_up', reason: `Retry-After ${LLM_RETRY_AFTER_MAX_MS / 1000 + 1} s exceeds ${LLM_RETRY_AFTER_MAX_MS / 1000} s` },
    ],
    [
      'a wait that reaches the turn deadline',
      { ...base, retryAfterMs: 2000, deadlineMs: NOW + 2000 },
      { kind: 'give_up', reason: 'the turn ends first' },
    ],
    ['a turn already past its deadline', { ...base, deadlineMs: NOW - 1 }, { kind: 'give_up', reason: 'the turn ends first' }],
    ['a wait that ends before the deadline', { ...base, retryAfterMs: 1000, deadlineMs: NOW + 2000 }, { kind: 'retry', delayMs: 1000 }],
  ])('%s', (_name, input, expected) => {
    expect(decideRetry(input)).toEqual(expected);
  });

  it('adds jitter on top of Retry-After so agents told the same moment do not all come back at once', () => {
    const delay = decideRetry({ ...base, retryAfterMs: 1000, random: () => 0.5 });
    expect(delay).toEqual({ kind: 'retry', delayMs: 1000 + LLM_RETRY_BASE_DELAY_MS / 2 });
  });
});
