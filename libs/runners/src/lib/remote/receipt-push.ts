/**
 * The host's end of a remote receipt watcher (assets/genswarms-receipt-watch, docs/receipts.md "Remote receipts: the
 * push"): the watcher runs next to the agent, as the agent's user, and prints a line when a turn's `done.json`
 * exists. Each line is only a WAKE-UP: the caller then reads and verifies the receipt through its transport exactly as
 * when it polls. Nothing of a line is trusted — the turn it names must be one this host asked about, and anything
 * else (another turn, a path, an oversize line, a flood) is ignored or ends the watcher; a dead watcher leaves the
 * caller on its fallback poll, and `onLost` is told once.
 */

/** The watcher's first line (its protocol version). */
export const PUSH_HELLO = 'genswarms-receipt-watch 1';
/** Longest line accepted from a watcher; a longer one ends it (a real line is at most 66 bytes). */
export const PUSH_LINE_MAX_BYTES = 128;
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
  private pending: Buffer = Buffer.alloc(0);
  private bogus = 0;
  private outboxFlag = false;
  private readonly flagged = new Set<string>();
  private readonly watched = new Map<string, number>(); // turn → wakes that found nothing yet
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly onLost: (detail: string) => void) {}

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
    this.pending = Buffer.alloc(0);
    this.bogus = 0;
    for (const turn of this.watched.keys()) channel.write(`w ${turn}\n`);
  }

  /** Asks the watcher about `turnId` (remembered for a watcher started later). */
  watch(turnId: string): void {
    if (!TURN_RE.test(turnId)) return;
    if (!this.watched.has(turnId)) {
      if (this.watched.size >= WATCHED_TURNS_MAX) this.watched.delete(this.watched.keys().next().value as string);
      this.watched.set(turnId, 0);
    }
    if (this.state === 'starting' || this.state === 'live') this.channel?.write(`w ${turnId}\n`);
  }

  /** Forgets `turnId` (its receipt was final, or the turn ended). */
  unwatch(turnId: string): void {
    this.watched.delete(turnId);
    this.flagged.delete(turnId);
  }

  /** Bytes from the watcher's stdout (any chunking). */
  feed(chunk: Buffer): void {
    if (this.state !== 'starting' && this.state !== 'live') return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = this.pending.indexOf(0x0a);
    while (at !== -1 && (this.state as State) !== 'dead') {
      const line = this.pending.subarray(0, at);
      this.pending = this.pending.subarray(at + 1);
      if (line.length > PUSH_LINE_MAX_BYTES) return this.drop('a line over the length bound');
      this.onLine(line.toString('latin1'));
      at = this.pending.indexOf(0x0a);
    }
    if (this.pending.length > PUSH_LINE_MAX_BYTES) this.drop('a line over the length bound');
  }

  /** The watcher's stream ended (exit, channel closed, link lost). */
  end(detail: string): void {
    if (this.state !== 'starting' && this.state !== 'live') return;
    this.state = 'dead';
    this.channel = undefined;
    this.onLost(detail);
    this.wakeAll('lost');
  }

  /** Ends the watcher on purpose (session stop): no `onLost`. */
  close(): void {
    const ch = this.channel;
    this.channel = undefined;
    this.state = 'dead';
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

  private drop(detail: string): void {
    const ch = this.channel;
    this.end(`the watcher was dropped: ${detail}`);
    ch?.close();
  }
}
