/**
 * When an agent's outbox is drained: on an inotify wake-up (the workspace and `.outbox` are watched) and on
 * a fallback poll that backs off while nothing arrives. A 500 ms timer per agent, each tick an
 * `lstat` chain, cost 15-29 % of a core for an idle 1,000-agent swarm.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Clock, TimerHandle } from '../util/clock';
import { OUTBOX_DIR } from './outbox';

/**
 * Longest wait between two fallback drains while the watch is live and nothing arrives (ms). The watch is what
 * delivers outbox files; this poll only covers a lost inotify event. At 30 s a 1,000-agent swarm still
 * drained 33 outboxes a second while idle — about a third of its idle CPU (mock 1.53 → 1.03 %, local 1.80 → 1.33 %
 * of a core with 120 s, same box, 30 s samples).
 */
export const OUTBOX_IDLE_POLL_MAX_MS = 120_000;
/**
 * Growth of that wait per empty drain: 500 ms → 8 s → 120 s, so an agent is at the cap 8.5 s after its last wake-up.
 * With ×4 (… → 8 s → 32 s → 120 s, the cap from 42.5 s on) a 1,000-agent swarm still drained 31 outboxes a
 * second for the half minute after its last turn.
 */
export const OUTBOX_BACKOFF_FACTOR = 16;

export interface OutboxScheduleDeps {
  readonly workspace: string;
  readonly clock: Clock;
  /** The base poll (engine `outboxPollMs`): the first wait, the wait after a wake-up, and the wait without a watch. */
  readonly basePollMs: number;
  /** One drain; its failures are the caller's to report (the schedule only keeps going). */
  readonly drain: () => Promise<void>;
}

/**
 * Watches `W` (for `.outbox` appearing) and `W/.outbox` (for entries) as wake-up hints only: nothing is
 * read through a watch, and the drain itself refuses a linked or replaced `.outbox` (routing/outbox.ts).
 * Without a live watch the poll stays at the base period.
 */
export class OutboxSchedule {
  private timer: TimerHandle | null = null;
  private delayMs: number;
  private draining = false;
  private again = false;
  private closed = false;
  private outer: FSWatcher | undefined;
  private inner: FSWatcher | undefined;
  private innerWanted = false;

  constructor(private readonly deps: OutboxScheduleDeps) {
    this.delayMs = deps.basePollMs;
  }

  start(): void {
    this.outer = this.watchDir(this.deps.workspace, (name) => {
      if (name === null || name === OUTBOX_DIR) this.attachInner();
    });
    this.attachInner();
    this.schedule();
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    this.outer?.close();
    this.inner?.close();
    this.outer = this.inner = undefined;
  }

  /** A live watch covers the outbox: the workspace is watched and so is `.outbox` when it is a directory. */
  private get watched(): boolean {
    return this.outer !== undefined && (this.inner !== undefined || !this.innerWanted);
  }

  /** Drains now (coalesced: a wake during a drain runs exactly one more) and resets the backoff. */
  wake(): void {
    if (this.closed) return;
    this.delayMs = this.deps.basePollMs;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.timer?.cancel();
    this.timer = null;
    this.tick();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.deps.clock.setTimer(this.delayMs, () => {
      this.timer = null;
      this.tick();
    });
  }

  private tick(): void {
    if (this.closed) return;
    this.draining = true;
    void this.deps.drain().finally(() => {
      this.draining = false;
      if (this.again) {
        this.again = false;
        this.tick();
        return;
      }
      this.delayMs = this.watched
        ? Math.min(this.delayMs * OUTBOX_BACKOFF_FACTOR, Math.max(OUTBOX_IDLE_POLL_MAX_MS, this.deps.basePollMs))
        : this.deps.basePollMs;
      this.schedule();
    });
  }

  /** (Re)attaches the `.outbox` watch when it is a real directory, then drains once (entries written before it was live). */
  private attachInner(): void {
    const dir = path.join(this.deps.workspace, OUTBOX_DIR);
    lstat(dir).then(
      (st) => {
        if (this.closed) return;
        this.inner?.close();
        this.inner = undefined;
        this.innerWanted = st.isDirectory();
        if (st.isDirectory()) this.inner = this.watchDir(dir, () => this.wake());
        this.wake();
      },
      () => {
        // expected: no `.outbox` yet; the workspace watch reports when it appears
        this.inner?.close();
        this.inner = undefined;
        this.innerWanted = false;
      },
    );
  }

  private watchDir(dir: string, onEvent: (name: string | null) => void): FSWatcher | undefined {
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (_event, name) => onEvent(typeof name === 'string' ? name : null));
    } catch {
      return undefined; // expected: no inotify (or the directory is gone): the poll stays at the base period
    }
    w.on('error', () => {
      w.close();
      if (this.outer === w) this.outer = undefined;
      if (this.inner === w) this.inner = undefined;
    });
    return w;
  }
}
