import type { IrError, OpName } from '../state/types';
import { OP_NAMES, isRecord, own } from '../state/types';
import { validatePayload } from './validate-payload';

/** True when `op` is one of the ten overlay ops. */
export function isOpName(op: unknown): op is OpName {
  return typeof op === 'string' && (OP_NAMES as readonly string[]).includes(op);
}

/** One event's shape without its seq ordering: object, integer seq, known op, object payload, payload rules. */
export function validateEvent(ev: unknown): IrError | null {
  if (!isRecord(ev)) return { code: 'invalid_event' };
  const seq = own(ev, 'seq');
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq)) return { code: 'invalid_seq', seq: seq ?? null };
  const op = own(ev, 'op');
  if (!isOpName(op)) return { code: 'unknown_op', op: typeof op === 'string' ? op : null };
  const payload = own(ev, 'payload');
  if (!isRecord(payload)) return { code: 'invalid_payload' };
  return validatePayload(op, payload);
}

/** Validates a list of events: each event, then strictly ascending seq. Errors carry the event's seq. */
export function validateEvents(events: readonly unknown[]): { seq: number | null; error: IrError } | null {
  let prev: number | null = null;
  for (const [index, ev] of events.entries()) {
    const err = validateEvent(ev);
    const seq = isRecord(ev) && typeof ev['seq'] === 'number' && Number.isSafeInteger(ev['seq']) ? ev['seq'] : null;
    if (err !== null) return { seq, error: { ...err, index } };
    if (prev !== null && (seq as number) <= prev) return { seq, error: { code: 'non_monotonic_seq', seq, prev } };
    prev = seq;
  }
  return null;
}

function checkEnvelope(x: Record<string, unknown>): IrError | null {
  const v = own(x, 'v');
  if (v !== 1) return { code: 'unsupported_version', value: v ?? null };
  if (own(x, 'kind') !== 'swarm.overlay') return { code: 'wrong_kind', value: own(x, 'kind') ?? null };
  const swarm = own(x, 'swarm');
  if (typeof swarm !== 'string' || swarm.trim() === '') return { code: 'missing', field: 'swarm' };
  const apply = own(x, 'apply') ?? 'incremental';
  if (apply !== 'incremental' && apply !== 'transactional') return { code: 'invalid_apply_mode', value: apply };
  return Array.isArray(own(x, 'events')) ? null : { code: 'missing_events' };
}

/** docs/ir.md in order: envelope, then each event. `null` when valid. */
export function validateOverlay(x: unknown): IrError | null {
  const o = isRecord(x) ? x : {};
  const err = checkEnvelope(o);
  if (err !== null) return err;
  const bad = validateEvents(o['events'] as unknown[]);
  return bad === null ? null : bad.error;
}
