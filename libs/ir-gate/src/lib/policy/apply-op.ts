import { fold } from '../fold/fold';
import { isOpName } from '../overlay/validate-overlay';
import type { FoldResult, OverlayEvent, SwarmState } from '../state/types';
import { isRecord } from '../state/types';
import type { PolicyOptions } from './policy';
import { checkOpPolicy } from './policy';

/** `applyOp(state, event, opts)` = policy then fold (docs/ir.md#fold-materialize-compact-policy). A refusal changes nothing. */
export function applyOp(state: SwarmState, event: OverlayEvent, opts: PolicyOptions = {}): FoldResult {
  const seq = isRecord(event) && typeof event.seq === 'number' ? event.seq : null;
  if (isRecord(event) && isOpName(event.op) && isRecord(event.payload) && isRecord(state) && Array.isArray(state.agents)) {
    const refusal = checkOpPolicy(state, event, opts);
    if (refusal !== null) return { kind: 'error', seq, error: refusal };
  }
  return fold(state, [event]);
}

/** `applyOp` per event, stopping at the first error (docs/ir.md). */
export function applyOverlay(state: SwarmState, events: readonly OverlayEvent[], opts: PolicyOptions = {}): FoldResult {
  let current = state;
  let prev: number | null = null;
  for (const event of events) {
    if (prev !== null && isRecord(event) && typeof event.seq === 'number' && event.seq <= prev) {
      return { kind: 'error', seq: event.seq, error: { code: 'non_monotonic_seq', seq: event.seq, prev } };
    }
    const result = applyOp(current, event, opts);
    if (result.kind === 'error') return result;
    current = result.state;
    prev = event.seq;
  }
  return { kind: 'ok', state: structuredClone(current) };
}
