import { parseEvents, validateEvents, validateOverlay } from '../overlay/validate-overlay';
import type { FoldResult, OverlayEvent, SwarmOverlay, SwarmState } from '../state/types';
import { isRecord } from '../state/types';
import { validateState } from '../state/validate-state';
import { applyEvent } from './apply-event';

/** A private deep copy with defaults filled (objects, topology, options). */
export function draftOf(state: SwarmState): SwarmState {
  const s = structuredClone(state);
  return {
    ...s,
    objects: Array.isArray(s.objects) ? s.objects : [],
    topology: Array.isArray(s.topology) ? s.topology : [],
    options: isRecord(s.options) ? s.options : {},
  };
}

/**
 * docs/ir.md: applies events in order to a copy of `state`. All or nothing: the first failure
 * returns `{seq, error}` and no partial state. Inputs are never mutated.
 */
export function fold(state: SwarmState, events: readonly OverlayEvent[]): FoldResult {
  const stateErr = validateState(state);
  if (stateErr !== null) return { kind: 'error', seq: null, error: stateErr };
  if (!Array.isArray(events)) return { kind: 'error', seq: null, error: { code: 'missing_events' } };
  // Stored events are parsed here, never trusted: a row of an older or tampered database is refused with its code.
  const parsed = parseEvents(events);
  if (parsed.kind === 'error') return parsed;
  const draft = draftOf(state);
  for (const ev of parsed.events) {
    const err = applyEvent(draft, ev);
    if (err !== null) return { kind: 'error', seq: ev.seq, error: err };
  }
  return { kind: 'ok', state: draft };
}

/** Events of an overlay document or a bare event list. */
function eventsOf(overlay: SwarmOverlay | readonly OverlayEvent[]): readonly OverlayEvent[] {
  return isEventList(overlay) ? overlay : overlay.events;
}

function isEventList(overlay: SwarmOverlay | readonly OverlayEvent[]): overlay is readonly OverlayEvent[] {
  return Array.isArray(overlay);
}

/** `materialize(seed, overlay)` = fold without policy (docs/ir.md). Accepts an overlay or its events. */
export function materialize(seed: SwarmState, overlay: SwarmOverlay | readonly OverlayEvent[]): FoldResult {
  if (!isEventList(overlay)) {
    const err = validateOverlay(overlay);
    if (err !== null) return { kind: 'error', seq: null, error: err };
  }
  return fold(seed, eventsOf(overlay));
}

export type CompactResult =
  | { kind: 'ok'; checkpoint: SwarmState; remaining: OverlayEvent[] }
  | { kind: 'error'; seq: number | null; error: { code: string; [k: string]: unknown } };

/** Folds events with seq ≤ `at` into a checkpoint; the rest stay as `remaining`. */
export function compact(seed: SwarmState, overlay: SwarmOverlay | readonly OverlayEvent[], at: number): CompactResult {
  if (!isEventList(overlay)) {
    const err = validateOverlay(overlay);
    if (err !== null) return { kind: 'error', seq: null, error: err };
  }
  const events = eventsOf(overlay);
  const bad = validateEvents(events);
  if (bad !== null) return { kind: 'error', seq: bad.seq, error: bad.error };
  const folded = fold(
    seed,
    events.filter((e) => e.seq <= at),
  );
  if (folded.kind === 'error') return folded;
  return { kind: 'ok', checkpoint: folded.state, remaining: events.filter((e) => e.seq > at).map((e) => structuredClone(e)) };
}
