import type { EventSink } from '../events/event-sink';
import type { ServerLogger } from './logger';

/** Why a caller was refused at the edge (docs/observability.md `auth_denied.reason`). */
export type DenialReason = 'unauthorized' | 'token_required' | 'host_not_allowed' | 'origin_not_allowed';

/** One denial; never carries the presented token. `route` is a path without its query. */
export interface Denial {
  readonly peer: string;
  readonly transport: 'http' | 'socket';
  readonly method: string;
  readonly route: string;
  readonly reason: DenialReason;
}

/** One event per (peer, reason) per 10 s; the next one carries `suppressed`. */
export const AUTH_DENIED_WINDOW_MS = 10_000;
const MAX_TRACKED = 10_000;

export type AuthDeniedReporter = (denial: Denial) => void;

interface Slot {
  last: number;
  suppressed: number;
}

/** Builds the rate-limited `auth_denied` reporter. `now` is injectable so the window is testable without waiting. */
export function createAuthDeniedReporter(deps: { events: EventSink; logger: ServerLogger; now?: () => number }): AuthDeniedReporter {
  const now = deps.now ?? Date.now;
  const slots = new Map<string, Slot>();
  return (denial) => {
    const key = `${denial.peer}\u0000${denial.reason}`;
    const t = now();
    const slot = slots.get(key);
    if (slot !== undefined && t - slot.last < AUTH_DENIED_WINDOW_MS) {
      slot.suppressed += 1;
      return;
    }
    const suppressed = slot?.suppressed ?? 0;
    slots.delete(key);
    if (slots.size >= MAX_TRACKED) prune(slots, t);
    slots.set(key, { last: t, suppressed: 0 });
    const metadata = { ...denial, ...(suppressed > 0 ? { suppressed } : {}) };
    deps.events.emit({
      level: 'warning',
      category: 'system',
      swarm: null,
      agent: null,
      event_type: 'auth_denied',
      message: `Request refused: ${denial.reason}`,
      metadata,
    });
    deps.logger.warn('auth_denied', metadata);
  };
}

function prune(slots: Map<string, Slot>, t: number): void {
  for (const [key, slot] of slots) if (t - slot.last >= AUTH_DENIED_WINDOW_MS) slots.delete(key);
  // Still full (a flood of distinct peers): drop the oldest entries rather than grow without bound.
  for (const key of slots.keys()) {
    if (slots.size < MAX_TRACKED) break;
    slots.delete(key);
  }
}
