import { readScreen, screenText, type ClientScreenRules, type ScreenVerdict } from '../client/screens/screen-rules';
import type { ScreenPort } from './screen-port';

/** One look at the screen: its lines, what the rules make of it, and how long it has been unchanged (ms). */
export interface ScreenSample {
  readonly lines: readonly string[];
  readonly text: string;
  readonly verdict: ScreenVerdict;
  readonly stableMs: number;
}

export type ScreenWaitEnd<T> =
  | { readonly kind: 'done'; readonly value: T; readonly lines: readonly string[] }
  | { readonly kind: 'timeout'; readonly lines: readonly string[]; readonly verdict: ScreenVerdict }
  | { readonly kind: 'exited'; readonly lines: readonly string[] }
  | { readonly kind: 'aborted' };

export interface ScreenWaitOptions {
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Reads the screen every `pollMs` until `decide` returns a value, the client exits, `timeoutMs` passes or
 * `signal` aborts. A capture that fails (the pane is going) counts as an unchanged screen.
 */
export async function watchScreen<T>(
  port: ScreenPort,
  rules: ClientScreenRules,
  opts: ScreenWaitOptions,
  decide: (sample: ScreenSample) => T | undefined,
): Promise<ScreenWaitEnd<T>> {
  const started = Date.now();
  let lines: readonly string[] = [];
  let last: string | undefined;
  let since = started;
  for (;;) {
    if (opts.signal?.aborted === true) return { kind: 'aborted' };
    if (port.exited()) return { kind: 'exited', lines };
    // expected: tmux answers %error for a pane that is closing; its exit is seen on the next pass
    lines = await port.capture().catch(() => lines);
    const text = screenText(lines);
    const now = Date.now();
    if (text !== last) {
      last = text;
      since = now;
    }
    const verdict = readScreen(rules, lines);
    const value = decide({ lines, text, verdict, stableMs: now - since });
    if (value !== undefined) return { kind: 'done', value, lines };
    if (now - started >= opts.timeoutMs) return { kind: 'timeout', lines, verdict };
    await sleep(opts.pollMs, opts.signal);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
