/**
 * The host's end of a remote receipt watcher (assets/genswarms-receipt-watch, docs/receipts.md "Remote receipts: the
 * push"): the watcher runs next to the agent, as the agent's user, and prints a line when a turn's `done.json`
 * exists. A line is a WAKE-UP: the caller then reads and verifies the receipt through its transport exactly as when it
 * polls. With `bytes`, the watcher also sends the receipt's files as frames (receipt-frames.ts) before that line; the
 * caller takes them (`takeReceipt`) and mirrors and parses them under the same bounds and parser as bytes it read
 * itself. Nothing is trusted — a turn must be one this host asked about, a frame within the receipt bounds, and
 * anything else (another turn, a path, an oversize line or frame, a flood) is ignored or ends the watcher; a dead
 * watcher leaves the caller on its fallback poll (the transport read), and `onLost` is told once.
 */
import { DONE_FILE, REPLY_FILE } from '@genswarms/receipts';
import { FrameReader, PUSH_LINE_MAX_BYTES, type ReceiptFileName } from './receipt-frames';

export { PUSH_LINE_MAX_BYTES };

/** The watcher's first line (its protocol version). */
export const PUSH_HELLO = 'genswarms-receipt-watch 1';
/** Lines that wake nothing (unknown turn, malformed, before the hello) tolerated before the watcher is dropped. */
export const PUSH_BOGUS_LINES_MAX = 64;
/** Wakes for one turn that found no receipt before that turn's pushes are ignored (the poll still runs). */
export const PUSH_WAKES_PER_TURN_MAX = 16;
/** Turns the host keeps asking about at once (the watcher's own cap is 8; older turns fall back to the poll). */
const WATCHED_TURNS_MAX = 8;
const RECEIPT_LINE_RE = /^r ([a-z0-9_-]{1,64})$/;
const TURN_RE = /^[a-z0-9_-]{1,64}$/;

/** How the host talks to a started watcher: its stdin, and how to end it. */
export interface PushChannel {
  write(line: string): void;
  close(): void;
}

/** A receipt the watcher sent: done.json's bytes and reply.md's (null when there was none). Untrusted bytes. */
export interface PushedReceipt {
  readonly done: Buffer;
  readonly reply: Buffer | null;
}

interface Partial {
  done?: Buffer;
  reply?: Buffer;
}

/** Why a wait ended: a push for the turn (or outbox activity), the timeout, or the watcher's end. */
export type PushWake = 'receipt' | 'outbox' | 'timeout' | 'lost';

type State = 'idle' | 'starting' | 'live' | 'dead';

interface Waiter {
  readonly turnId: string;
  readonly done: (wake: PushWake) => void;
}

export class ReceiptPush {
  private state: State = 'idle';
  private channel: PushChannel | undefined;
  private reader: FrameReader | undefined;
  private bogus = 0;
  private outboxFlag = false;
  private readonly flagged = new Set<string>();
  private readonly watched = new Map<string, number>(); // turn → wakes that found nothing yet
  private readonly waiters = new Set<Waiter>();
  private readonly partial = new Map<string, Partial>(); // frames of a turn before its `r` line
  private readonly received = new Map<string, PushedReceipt>(); // whole receipts not taken yet
  private readonly pushes = new Map<string, number>(); // receipts sent per turn

  /** `bytes`: ask the watcher for the receipt's bytes (`b <turn>`), not only the wake (`w <turn>`). */
  constructor(
    private readonly onLost: (detail: string) => void,
    private readonly bytes = false,
  ) {}

  /** True once the watcher said hello and has not ended: the caller may poll slowly. */
  get live(): boolean {
    return this.state === 'live';
  }

  /** True when no watcher is starting or live (the caller may start one). */
  get stopped(): boolean {
    return this.state === 'idle' || this.state === 'dead';
  }

  /** A watcher was started on `channel`: bytes of its stdout go to `feed`, its end to `end`. */
  attach(channel: PushChannel): void {
    this.channel = channel;
    this.state = 'starting';
    this.bogus = 0;
    this.reader?.stop();
    this.partial.clear();
    this.reader = new FrameReader({
      line: (line) => this.onLine(line),
      accepts: (turn, name) => this.accepts(turn, name),
      frame: (turn, name, data) => this.onFrame(turn, name, data),
      fail: (detail) => this.drop(detail),
    });
    for (const turn of this.watched.keys()) channel.write(this.request(turn));
  }

  /** Asks the watcher about `turnId` (remembered for a watcher started later). */
  watch(turnId: string): void {
    if (!TURN_RE.test(turnId)) return;
    if (!this.watched.has(turnId)) {
      if (this.watched.size >= WATCHED_TURNS_MAX) this.watched.delete(this.watched.keys().next().value as string);
      this.watched.set(turnId, 0);
    }
    if (this.state === 'starting' || this.state === 'live') this.channel?.write(this.request(turnId));
  }

  private request(turnId: string): string {
    return `${this.bytes ? 'b' : 'w'} ${turnId}\n`;
  }

  /** The receipt the watcher sent for `turnId` since the last call, if any (taken once). */
  takeReceipt(turnId: string): PushedReceipt | undefined {
    const r = this.received.get(turnId);
    this.received.delete(turnId);
    return r;
  }

  /** Forgets `turnId` (its receipt was final, or the turn ended). */
  unwatch(turnId: string): void {
    this.watched.delete(turnId);
    this.flagged.delete(turnId);
    this.partial.delete(turnId);
    this.received.delete(turnId);
    this.pushes.delete(turnId);
  }

  /** Bytes from the watcher's stdout (any chunking). */
  feed(chunk: Buffer): void {
    if (this.state !== 'starting' && this.state !== 'live') return;
    this.reader?.push(chunk);
  }

  /** A frame may start only on a live watcher, for a watched turn asked with `b`, reply.md before done.json, once each. */
  private accepts(turn: string, name: ReceiptFileName): boolean {
    if (this.state !== 'live' || !this.bytes || !this.watched.has(turn)) return false;
    const p = this.partial.get(turn);
    if (p?.done !== undefined) return false;
    return name === DONE_FILE || p?.reply === undefined;
  }

  private onFrame(turn: string, name: ReceiptFileName, data: Buffer): void {
    const p = this.partial.get(turn) ?? {};
    if (name === REPLY_FILE) p.reply = data;
    else p.done = data;
    this.partial.set(turn, p);
  }

  /** The watcher's stream ended (exit, channel closed, link lost). */
  end(detail: string): void {
    if (this.state !== 'starting' && this.state !== 'live') return;
    this.state = 'dead';
    this.channel = undefined;
    this.stopReader();
    this.onLost(detail);
    this.wakeAll('lost');
  }

  /** Ends the watcher on purpose (session stop): no `onLost`. */
  close(): void {
    const ch = this.channel;
    this.channel = undefined;
    this.state = 'dead';
    this.stopReader();
    ch?.close();
    this.wakeAll('lost');
  }

  /**
   * Waits up to `ms` for a push about `turnId` (or outbox activity); a push that arrived since the last wait counts at
   * once. Never rejects: an abort resolves `timeout` (the caller checks its signal).
   */
  wait(turnId: string, ms: number, signal: AbortSignal): Promise<PushWake> {
    const early = this.take(turnId);
    if (early !== undefined) return Promise.resolve(early);
    return new Promise((resolve) => {
      const finish = (wake: PushWake): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        resolve(wake);
      };
      const waiter: Waiter = { turnId, done: finish };
      const onAbort = (): void => finish('timeout');
      const timer = setTimeout(() => finish('timeout'), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** A wake that found no receipt: after PUSH_WAKES_PER_TURN_MAX of them the turn's pushes are ignored. */
  missed(turnId: string): void {
    const n = this.watched.get(turnId);
    if (n !== undefined) this.watched.set(turnId, n + 1);
  }

  private take(turnId: string): PushWake | undefined {
    if (this.flagged.delete(turnId)) return 'receipt';
    if (this.outboxFlag) {
      this.outboxFlag = false;
      return 'outbox';
    }
    return undefined;
  }

  private onLine(line: string): void {
    if (this.state === 'starting') {
      if (line === PUSH_HELLO) this.state = 'live';
      else this.bogusLine();
      return;
    }
    if (line === 'o') {
      this.outboxFlag = true;
      return this.wakeWaiters((w) => w !== undefined, 'outbox');
    }
    const m = RECEIPT_LINE_RE.exec(line);
    const turn = m?.[1];
    const wakes = turn === undefined ? undefined : this.watched.get(turn);
    if (turn === undefined || wakes === undefined) return this.bogusLine();
    const files = this.partial.get(turn);
    this.partial.delete(turn);
    if (files !== undefined) {
      if (files.done === undefined) return this.drop('a receipt without done.json');
      const sent = (this.pushes.get(turn) ?? 0) + 1;
      this.pushes.set(turn, sent);
      if (sent > PUSH_WAKES_PER_TURN_MAX) return this.drop('too many receipts for one turn');
      this.received.set(turn, { done: files.done, reply: files.reply ?? null });
    }
    if (wakes >= PUSH_WAKES_PER_TURN_MAX) return; // a turn woken this often for nothing: left to the poll
    this.flagged.add(turn);
    this.wakeWaiters((w) => w.turnId === turn, 'receipt');
  }

  private bogusLine(): void {
    this.bogus += 1;
    if (this.bogus > PUSH_BOGUS_LINES_MAX) this.drop('too many lines naming no watched turn');
  }

  private wakeWaiters(match: (w: Waiter) => boolean, wake: PushWake): void {
    for (const w of [...this.waiters]) {
      if (!match(w)) continue;
      if (wake === 'receipt') this.flagged.delete(w.turnId);
      else this.outboxFlag = false;
      w.done(wake);
    }
  }

  private wakeAll(wake: PushWake): void {
    for (const w of [...this.waiters]) w.done(wake);
  }

  private stopReader(): void {
    this.reader?.stop();
    this.reader = undefined;
    this.partial.clear();
  }

  private drop(detail: string): void {
    const ch = this.channel;
    this.end(`the watcher was dropped: ${detail}`);
    ch?.close();
  }
}
