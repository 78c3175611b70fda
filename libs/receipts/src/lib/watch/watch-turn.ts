import type { FSWatcher } from 'node:fs';
import { watch } from 'node:fs';
import type { ReceiptBounds } from '../bounds/bounds';
import { resolveBounds } from '../bounds/bounds';
import { ReceiptError } from '../errors/receipt-error';
import type { TurnAttempt, TurnReceipt } from '../turn/read-turn-receipt';
import { attemptTurnReceipt } from '../turn/read-turn-receipt';
import { turnDirChain } from '../turn/turn-paths';
import { attachDirWatch } from './dir-watch';

/** Poll period of the watcher (docs/receipts.md); fs.watch may only wake it earlier. */
export const WATCH_POLL_MS = 250;
/** An unparsable done.json is malformed only if it looks the same on two reads this far apart. */
export const MALFORMED_SETTLE_MS = 500;

export interface WatchTurnOptions {
  readonly signal?: AbortSignal;
  readonly pollMs?: number;
  readonly bounds?: Partial<ReceiptBounds>;
  /** The fs.watch to use (a test port: a spec writes a receipt at the moment the watch attaches). */
  readonly fsWatch?: typeof watch;
  /**
   * The host created the turn directory before this watch (prepareTurnDir): a chain that is missing now was removed
   * by the agent, and is refused `receipt_replaced` (file `directory`) once a second look 500 ms later agrees —
   * instead of a watch that never ends (an agent emptying its own workspace). Default false: missing = pending.
   */
  readonly requireTurnDir?: boolean;
}

/**
 * Resolves with the first final receipt of the turn (`ok` or `refused`, never `pending`). An fs.watch on
 * the real turn directory is attached first and the receipt is checked once it is live (and right away),
 * so a receipt written while the watch attaches is not left to the poll; the poll every pollMs is the
 * fallback (no inotify, a watch that drops events). Aborting rejects with an Error
 * named `AbortError` (code `ABORT_ERR`, cause = signal.reason). Leaves no timer or watcher behind.
 */
export async function watchTurn(workspaceReal: string, turnId: string, opts: WatchTurnOptions = {}): Promise<TurnReceipt> {
  const paths = turnDirChain(workspaceReal, turnId);
  const bounds = resolveBounds(opts.bounds);
  const pollMs = opts.pollMs ?? WATCH_POLL_MS;
  if (!Number.isFinite(pollMs) || pollMs < 1 || pollMs > 60000) {
    throw new ReceiptError('invalid_option', 'pollMs must be a number between 1 and 60000');
  }
  const turnDir = paths[paths.length - 1] as string;
  const attempt = async (): Promise<TurnAttempt> => {
    const a = await attemptTurnReceipt(workspaceReal, turnId, bounds);
    if (opts.requireTurnDir !== true || a.dirMissing !== true) return a;
    return { receipt: { kind: 'refused', reason: 'receipt_replaced', file: 'directory' }, unsettled: { key: 'turn-dir-missing' } };
  };
  return new TurnWatcher(attempt, paths, turnDir, pollMs, opts.signal, opts.fsWatch ?? watch).run();
}

/** Creates the Error a watch rejects with when aborted. */
export function abortError(reason: unknown): Error {
  const error = new Error('watchTurn was aborted', { cause: reason });
  Object.defineProperty(error, 'name', { value: 'AbortError', enumerable: false, configurable: true, writable: true });
  return Object.assign(error, { code: 'ABORT_ERR' });
}

class TurnWatcher {
  private settled = false;
  private busy = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private watchPending = false;
  /** The in-flight attach; a settle waits for it, so no watcher is created after the promise settled. */
  private attaching: Promise<void> = Promise.resolve();
  private candidate: { key: string; since: number } | undefined;
  private resolve: (receipt: TurnReceipt) => void = () => undefined;
  private reject: (error: unknown) => void = () => undefined;
  private readonly onAbort = (): void => this.fail(abortError(this.signal?.reason));

  constructor(
    private readonly attempt: () => Promise<TurnAttempt>,
    private readonly chainPaths: readonly string[],
    private readonly turnDir: string,
    private readonly pollMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly fsWatch: typeof watch,
  ) {}

  run(): Promise<TurnReceipt> {
    return new Promise<TurnReceipt>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      if (this.signal?.aborted === true) return this.fail(abortError(this.signal.reason));
      this.signal?.addEventListener('abort', this.onAbort, { once: true });
      // The watch used to attach only after the first check, and a receipt written in between
      // waited for the poll (the ~250 ms p99 tail). Watch first; check now and again once it is live.
      this.startWatch();
      this.tick();
    });
  }

  /** Runs one attempt now; a wake during an attempt queues exactly one more. */
  private tick(): void {
    if (this.settled) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.busy = true;
    this.attempt().then(
      (attempt) => this.onAttempt(attempt),
      (error: unknown) => this.fail(error),
    );
  }

  private onAttempt(attempt: TurnAttempt): void {
    this.busy = false;
    if (this.settled) return;
    const wait = this.decide(attempt);
    if (wait === undefined) return this.finish(attempt.receipt);
    if (this.again) {
      this.again = false;
      return this.tick();
    }
    this.timer = setTimeout(() => this.tick(), wait);
    if (this.watcher === undefined) this.startWatch(); // the first attach failed (e.g. the dir did not exist yet)
  }

  /** undefined = final; otherwise how long to wait before the next attempt. */
  private decide(attempt: TurnAttempt): number | undefined {
    if (attempt.receipt.kind === 'pending') {
      this.candidate = undefined;
      return this.pollMs;
    }
    if (attempt.unsettled === undefined) return undefined;
    const now = Date.now();
    if (this.candidate?.key !== attempt.unsettled.key) {
      this.candidate = { key: attempt.unsettled.key, since: now };
      return Math.min(this.pollMs, MALFORMED_SETTLE_MS);
    }
    const left = this.candidate.since + MALFORMED_SETTLE_MS - now;
    return left <= 0 ? undefined : Math.min(this.pollMs, left);
  }

  private startWatch(): void {
    if (this.watchPending) return;
    this.watchPending = true;
    this.attaching = attachDirWatch(this.chainPaths, this.turnDir, () => this.tick(), this.fsWatch).then(
      (watcher) => {
        this.watchPending = false;
        if (watcher === undefined) return;
        if (this.settled || this.watcher !== undefined) return watcher.close();
        this.watcher = watcher;
        watcher.on('error', () => this.dropWatch(watcher));
        this.tick(); // anything written before the watch was live is seen now, not at the next poll
      },
      () => {
        // expected: no watcher could be attached; the poll timer still wakes the watch
        this.watchPending = false;
      },
    );
  }

  private dropWatch(watcher: FSWatcher): void {
    watcher.close();
    if (this.watcher === watcher) this.watcher = undefined;
  }

  private finish(receipt: TurnReceipt): void {
    if (this.settled) return;
    this.cleanup();
    void this.attaching.then(() => this.resolve(receipt));
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.cleanup();
    void this.attaching.then(() => this.reject(error));
  }

  private cleanup(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
