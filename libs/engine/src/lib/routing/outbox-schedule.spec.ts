import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Clock } from '../util/clock';
import { OUTBOX_IDLE_POLL_MAX_MS, OutboxSchedule } from './outbox-schedule';
import { waitFor } from '@genswarms/test-kit';

// An idle swarm paid a 500 ms drain timer per agent. Now the outbox is watched (inotify) and the
// fallback poll backs off while nothing arrives; a fake clock shows which waits were asked for.
class FakeClock implements Clock {
  readonly waits: number[] = [];
  private pending: { fn: () => void; cancelled: boolean }[] = [];
  now(): Date {
    return new Date(0);
  }
  setTimer(ms: number, fn: () => void): { cancel(): void } {
    const t = { fn, cancelled: false };
    this.waits.push(ms);
    this.pending.push(t);
    return { cancel: () => void (t.cancelled = true) };
  }
  /** Fires every due timer once (time itself is not modelled: each call is "the next wait elapsed"). */
  fire(): void {
    const due = this.pending.splice(0);
    for (const t of due) if (!t.cancelled) t.fn();
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('outbox schedule', () => {
  let ws: string;
  beforeEach(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'gs-outbox-sched-'));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('backs the poll off while a watched outbox stays empty', async () => {
    mkdirSync(path.join(ws, '.outbox'));
    const clock = new FakeClock();
    let drains = 0;
    const s = new OutboxSchedule({ workspace: ws, clock, basePollMs: 500, drain: async () => void (drains += 1) });
    s.start();
    await waitFor(() => drains >= 1, 'the drain once the .outbox watch is attached');
    await settle();
    for (let i = 0; i < 9; i++) {
      clock.fire();
      await settle();
    }
    s.close();
    // 500 at start (and again after the wake-up when the watch attached), then ×16 up to the cap
    const grown = clock.waits.slice(clock.waits.lastIndexOf(500) + 1);
    expect(grown.slice(0, 3)).toEqual([8000, OUTBOX_IDLE_POLL_MAX_MS, OUTBOX_IDLE_POLL_MAX_MS]);
    expect(OUTBOX_IDLE_POLL_MAX_MS).toBe(120_000);
    expect(grown.every((w, i) => i === 0 || w >= (grown[i - 1] as number))).toBe(true);
    expect(grown).toContain(OUTBOX_IDLE_POLL_MAX_MS);
    expect(drains).toBeGreaterThanOrEqual(9);
  });

  it('drains an outbox file on the watch, with no timer firing', async () => {
    const clock = new FakeClock();
    let drains = 0;
    const s = new OutboxSchedule({ workspace: ws, clock, basePollMs: 500, drain: async () => void (drains += 1) });
    s.start();
    await settle();
    const before = drains;
    mkdirSync(path.join(ws, '.outbox')); // the workspace watch sees `.outbox` appear and watches it
    await waitFor(() => drains > before, 'the drain after .outbox appeared');
    const afterDir = drains;
    writeFileSync(path.join(ws, '.outbox', 'm.json'), '{"to":"b","content":"x"}');
    await waitFor(() => drains > afterDir, 'the drain woken by the new file');
    s.close();
    expect(clock.waits[0]).toBe(500);
  });

  it('keeps the base period when nothing can be watched', async () => {
    const clock = new FakeClock();
    const s = new OutboxSchedule({ workspace: path.join(ws, 'missing'), clock, basePollMs: 500, drain: async () => undefined });
    s.start();
    for (let i = 0; i < 4; i++) {
      clock.fire();
      await settle();
    }
    s.close();
    expect(new Set(clock.waits)).toEqual(new Set([500]));
  });
});
