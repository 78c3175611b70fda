/**
 * The timers of one agent session: the awaiting timer, the dispatch and full-disk retries, and the outbox poll.
 * The session's machine decides when each is armed or cancelled; this only holds the handles.
 */
import { OutboxSchedule } from '../routing/outbox-schedule';
import type { Clock, TimerHandle } from '../util/clock';

export class SessionTimers {
  private awaitTimer: TimerHandle | null = null;
  private dispatchRetry: TimerHandle | null = null;
  /** A turn that a full disk kept from being stored, retried until space returns. */
  private storageRetry: TimerHandle | null = null;
  private outbox: OutboxSchedule | null = null;

  constructor(private readonly clock: Clock) {}

  armAwait(ms: number, fire: () => void): void {
    this.cancelAwait();
    this.awaitTimer = this.clock.setTimer(ms, () => {
      this.awaitTimer = null;
      fire();
    });
  }

  cancelAwait(): void {
    this.awaitTimer?.cancel();
    this.awaitTimer = null;
  }

  armDispatchRetry(ms: number, fire: () => void): void {
    this.dispatchRetry?.cancel();
    this.dispatchRetry = this.clock.setTimer(ms, () => {
      this.dispatchRetry = null;
      fire();
    });
  }

  armStorageRetry(ms: number, fire: () => void): void {
    this.storageRetry?.cancel();
    this.storageRetry = this.clock.setTimer(ms, () => {
      this.storageRetry = null;
      fire();
    });
  }

  /** Outbox drains on inotify wake-ups plus a backing-off fallback poll (routing/outbox-schedule.ts). */
  startOutboxPoll(workspace: string, basePollMs: number, drain: () => Promise<void>): void {
    this.outbox?.close();
    this.outbox = new OutboxSchedule({ workspace, clock: this.clock, basePollMs, drain });
    this.outbox.start();
  }

  cancelAll(): void {
    this.outbox?.close();
    this.outbox = null;
    this.dispatchRetry?.cancel();
    this.dispatchRetry = null;
    this.storageRetry?.cancel();
    this.storageRetry = null;
    this.cancelAwait();
  }
}
