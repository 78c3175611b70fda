import type { IrError, OpName } from '../state/types';
import { OP_NAMES, isRecord, own } from '../state/types';
import type { OverlayEventParse, ParsedOverlayEvent } from './overlay-op';
import { parsePayload } from './parse-payload';

/** True when `op` is one of the ten overlay ops. */
export function isOpName(op: unknown): op is OpName {
  return OP_NAMES.some((name) => name === op);
}

/**
 * One stored or received event, parsed without its seq ordering: object, integer seq, known op, object
 * payload, then that op's payload rules. Only own properties are read; the typed event holds copies of
 * the fields fold uses, never the input object itself (but for the two node payloads, cloned when applied).
 */
export function parseOverlayEvent(ev: unknown): OverlayEventParse {
  if (!isRecord(ev)) return { kind: 'invalid', error: { code: 'invalid_event' } };
  const seq = own(ev, 'seq');
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq)) return { kind: 'invalid', error: { code: 'invalid_seq', seq: seq ?? null } };
  const op = own(ev, 'op');
  if (!isOpName(op)) return { kind: 'invalid', error: { code: 'unknown_op', op: typeof op === 'string' ? op : null } };
  const payload = own(ev, 'payload');
  if (!isRecord(payload)) return { kind: 'invalid', error: { code: 'invalid_payload' } };
  const parsed = parsePayload(op, payload);
  return parsed.kind === 'ok' ? { kind: 'ok', event: { ...parsed.op, seq } } : parsed;
}

/** One event's shape without its seq ordering; `null` when `parseOverlayEvent` accepts it. */
export function validateEvent(ev: unknown): IrError | null {
  const parsed = parseOverlayEvent(ev);
  return parsed.kind === 'ok' ? null : parsed.error;
}

/** A list's parse: every event typed, or the first refusal with the event's seq (null when it has none). */
export type EventsParse = { kind: 'ok'; events: ParsedOverlayEvent[] } | { kind: 'error'; seq: number | null; error: IrError };

/** Parses a list of events: each event, then strictly ascending seq. Errors carry the event's seq and index. */
export function parseEvents(events: readonly unknown[]): EventsParse {
  const out: ParsedOverlayEvent[] = [];
  for (const [index, ev] of events.entries()) {
    const parsed = parseOverlayEvent(ev);
    if (parsed.kind === 'invalid') {
      const seq = isRecord(ev) ? own(ev, 'seq') : undefined;
      return { kind: 'error', seq: typeof seq === 'number' && Number.isSafeInteger(seq) ? seq : null, error: { ...parsed.error, index } };
    }
    const prev = out.at(-1)?.seq;
    const { seq } = parsed.event;
    if (prev !== undefined && seq <= prev) return { kind: 'error', seq, error: { code: 'non_monotonic_seq', seq, prev } };
    out.push(parsed.event);
  }
  return { kind: 'ok', events: out };
}

/** Validates a list of events (`parseEvents` without the typed list). */
export function validateEvents(events: readonly unknown[]): { seq: number | null; error: IrError } | null {
  const parsed = parseEvents(events);
  return parsed.kind === 'ok' ? null : { seq: parsed.seq, error: parsed.error };
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
  const events = own(o, 'events');
  const bad = validateEvents(Array.isArray(events) ? events : []);
  return bad === null ? null : bad.error;
}
