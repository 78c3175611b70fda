/** Token buckets of the `rate_limit`s, in memory (a restart refills them: at most one extra burst). */
import type { RateLimitConfig } from '@genswarms/ir-gate';

interface Bucket {
  level: number;
  at: number;
}

/** A bucket of `capacity` refilled at `perSecond`; `level` as of `now`. */
function refill(b: Bucket, capacity: number, perSecond: number, now: number): void {
  b.level = Math.min(capacity, b.level + ((now - b.at) / 1000) * perSecond);
  b.at = now;
}

/**
 * Calls: a bucket of one second's worth (at least one call) refilled at `requests_per_minute / 60` per second,
 * so calls are spread over the minute rather than spent in a burst. Tokens: a bucket of one minute's worth that
 * a call may overdraw (its size is known only after it), refilled at `tokens_per_minute / 60` per second; a
 * call is admitted while the bucket is above zero.
 */
export class RateBuckets {
  private readonly calls = new Map<string, Bucket>();
  private readonly tokens = new Map<string, Bucket>();

  /** Seconds until a call may pass under `rate`, or 0 when it may now. */
  wait(key: string, rate: RateLimitConfig | undefined, now: number): number {
    let wait = 0;
    const rpm = rate?.requests_per_minute;
    if (rpm !== undefined) {
      const b = this.bucket(this.calls, key, callCapacity(rpm), now);
      refill(b, callCapacity(rpm), rpm / 60, now);
      if (b.level < 1) wait = Math.max(wait, (1 - b.level) / (rpm / 60));
    }
    const tpm = rate?.tokens_per_minute;
    if (tpm !== undefined) {
      const b = this.bucket(this.tokens, key, tpm, now);
      refill(b, tpm, tpm / 60, now);
      if (b.level <= 0) wait = Math.max(wait, (1 - b.level) / (tpm / 60));
    }
    return wait;
  }

  /** One call passed. */
  take(key: string, rate: RateLimitConfig | undefined, now: number): void {
    const rpm = rate?.requests_per_minute;
    if (rpm === undefined) return;
    const b = this.bucket(this.calls, key, callCapacity(rpm), now);
    refill(b, callCapacity(rpm), rpm / 60, now);
    b.level -= 1;
  }

  /** A call's tokens, once known. */
  charge(key: string, rate: RateLimitConfig | undefined, tokens: number, now: number): void {
    const tpm = rate?.tokens_per_minute;
    if (tpm === undefined || tokens <= 0) return;
    const b = this.bucket(this.tokens, key, tpm, now);
    refill(b, tpm, tpm / 60, now);
    b.level -= tokens;
  }

  private bucket(map: Map<string, Bucket>, key: string, capacity: number, now: number): Bucket {
    let b = map.get(key);
    if (b === undefined) {
      b = { level: capacity, at: now };
      map.set(key, b);
    }
    return b;
  }
}

function callCapacity(rpm: number): number {
  return Math.max(1, Math.ceil(rpm / 60));
}
