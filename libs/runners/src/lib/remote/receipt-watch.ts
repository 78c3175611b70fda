/**
 * One session's remote receipt watcher, started and restarted by the handle (ssh: an exec channel on the existing
 * connection; swarm: an exec stream on the task's container), and the wait between two receipt reads: a push, outbox
 * activity, or the fallback poll — slow while the watcher is live, today's interval once it is gone.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LAUNCHER_PATH } from '../launcher/launcher';
import { ReceiptPush, type PushWake, type PushedReceipt } from './receipt-push';

/** The watcher's source (constant bytes, shipped next to the launcher). */
export const RECEIPT_WATCH_SCRIPT_PATH: string = path.join(path.dirname(LAUNCHER_PATH), 'genswarms-receipt-watch');
/** Restarts of a watcher that was live and died, per session (one that never came up is not retried). */
export const RECEIPT_WATCH_RESTARTS_MAX = 2;

/** The watcher's source text (read once per call: a few KB). */
export function receiptWatchSource(): string {
  return readFileSync(RECEIPT_WATCH_SCRIPT_PATH, 'utf8');
}

/** A started watcher: its stdin, its stdout, its end. */
export interface WatcherStream {
  write(line: string): void;
  close(): void;
  onData(listener: (chunk: Buffer) => void): void;
  onEnd(listener: (detail: string) => void): void;
}

export interface ReceiptWatchOptions {
  /** Starts the watcher; absent = poll only. */
  readonly start?: () => Promise<WatcherStream>;
  /** The poll without a live watcher (the backend's usual interval). */
  readonly pollMs: number;
  /** The fallback poll while the watcher is live. */
  readonly pushPollMs: number;
  /** Ask the watcher for the receipt's bytes too (swarm: they replace two archive reads); default wake-ups only. */
  readonly pushBytes?: boolean;
}

export class ReceiptWatch {
  private readonly push: ReceiptPush;
  private readonly listeners = new Set<(detail: string) => void>();
  private starts = 0;
  private wasLive = false;
  private starting: Promise<void> | null = null;
  private closed = false;
  private readonly early: string[] = [];

  constructor(private readonly opts: ReceiptWatchOptions) {
    this.push = new ReceiptPush((detail) => this.lost(detail), opts.pushBytes === true);
  }

  /** Starts the watcher when none runs (bounded restarts). Never rejects: a failure leaves the poll and tells `onLost`. */
  ensure(): Promise<void> {
    this.starting ??= this.startOnce().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    const start = this.opts.start;
    if (start === undefined || this.closed || !this.push.stopped) return;
    if (this.starts > 0 && (!this.wasLive || this.starts > RECEIPT_WATCH_RESTARTS_MAX)) return;
    this.starts += 1;
    this.wasLive = false;
    let stream: WatcherStream;
    try {
      stream = await start();
    } catch (e) {
      this.lost(`the receipt watcher could not be started (${e instanceof Error ? e.message : 'start failed'})`);
      return;
    }
    if (this.closed) return stream.close();
    this.push.attach(stream);
    stream.onData((chunk) => {
      this.push.feed(chunk);
      if (this.push.live) this.wasLive = true;
    });
    stream.onEnd((detail) => this.push.end(detail));
  }

  /**
   * Told once per loss of the watcher (or a start that failed), with how and what the turn falls back to. A loss
   * before the first listener (the watcher starts with the client) is told to it.
   */
  onLost(listener: (detail: string) => void): void {
    this.listeners.add(listener);
    const early = this.early.splice(0);
    if (early.length > 0) queueMicrotask(() => early.forEach((d) => listener(d)));
  }

  private lost(detail: string): void {
    if (this.closed) return;
    const text = `${detail}; receipts are polled every ${this.opts.pollMs} ms`;
    if (this.listeners.size === 0) this.early.push(text);
    for (const l of [...this.listeners]) l(text);
  }

  watch(turnId: string): void {
    this.push.watch(turnId);
  }

  unwatch(turnId: string): void {
    this.push.unwatch(turnId);
  }

  /** True while a watcher is up and answering: every watched turn was asked about, a present receipt is told at once. */
  get live(): boolean {
    return this.push.live;
  }

  /** The receipt bytes the watcher sent for `turnId` since the last call (untrusted; taken once). */
  takeReceipt(turnId: string): PushedReceipt | undefined {
    return this.push.takeReceipt(turnId);
  }

  /** A wake that found no receipt (too many of them and the turn's pushes are ignored). */
  missed(turnId: string): void {
    this.push.missed(turnId);
  }

  /** Until a push about `turnId`, outbox activity, or the fallback poll; `settling` (a malformed receipt) polls fast. */
  async next(turnId: string, signal: AbortSignal, settling: boolean): Promise<PushWake> {
    const ms = this.push.live && !settling ? this.opts.pushPollMs : this.opts.pollMs;
    const wake = await this.push.wait(turnId, ms, signal);
    if (wake === 'lost') await this.ensure();
    return wake;
  }

  /** Ends the watcher for good (stop, exit): nothing is reported. */
  close(): void {
    this.closed = true;
    this.push.close();
  }
}
