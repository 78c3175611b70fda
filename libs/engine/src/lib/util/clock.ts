/** Injectable time: `now` and timers (the 90 s awaiting timer, turn timeouts, the outbox poll). */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): Date;
  setTimer(ms: number, fn: () => void): TimerHandle;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => new Date(),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
