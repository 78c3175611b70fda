import { JsonUsageScanner } from './json-usage-scanner';
import type { UsageFormat } from './response-head';
import { SseUsageScanner } from './sse-usage-scanner';
import { UsageTally, type LlmUsage } from './usage-tally';

/** Reads one response body's usage as it streams past. */
export interface UsageReader {
  push(buf: Buffer, start: number, end: number): void;
  /** The body ended; the usage seen, or null when none was reported (or the format is not read). */
  finish(): LlmUsage | null;
}

/** A reader for `format` (`none`: reads nothing). */
export function createUsageReader(format: UsageFormat): UsageReader {
  const tally = new UsageTally();
  if (format === 'none') return { push: () => undefined, finish: () => null };
  const scanner = format === 'sse' ? new SseUsageScanner(tally) : new JsonUsageScanner(tally);
  return {
    push: (buf, start, end) => scanner.push(buf, start, end),
    finish: () => {
      scanner.finish();
      return tally.result();
    },
  };
}
