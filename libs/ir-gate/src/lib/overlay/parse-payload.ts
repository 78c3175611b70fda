import { MAX_AGENTS_LIMIT } from '../config/limits';
import { DIGEST_RE } from '../ref/ref';
import type { Edge, IrAgent, IrError, IrObject, OpName } from '../state/types';
import { isRecord, own } from '../state/types';
import { isEdge } from '../state/validate-state';
import { validateAgent, validateObject } from '../state/validate-node';
import type { OnInflight, OverlayOp, RemoveNodePayload } from './overlay-op';
import { BUMP_FIELDS, MIGRATIONS, ON_INFLIGHT } from './overlay-op';

type P = Record<string, unknown>;
/** A payload's parse: the typed op, or the first rule it breaks (docs/ir.md order). */
export type PayloadParse = { kind: 'ok'; op: OverlayOp } | { kind: 'invalid'; error: IrError };

/** One field read from an untrusted payload: its typed value, or the rule it breaks. */
type Field<T> = { kind: 'ok'; value: T } | { kind: 'invalid'; error: IrError };

const invalid = (error: IrError): { kind: 'invalid'; error: IrError } => ({ kind: 'invalid', error });
const value = <T>(v: T): Field<T> => ({ kind: 'ok', value: v });

function isOneOf<T extends string>(allowed: readonly T[], v: unknown): v is T {
  return allowed.some((a) => a === v);
}

function needString(p: P, field: string): Field<string> {
  const v = own(p, field);
  return typeof v === 'string' && v !== '' ? value(v) : invalid({ code: 'missing_field', field });
}

/** An optional enum field: absent → undefined; present off the list → `invalid_policy`. */
function enumField<T extends string>(p: P, key: string, allowed: readonly T[]): Field<T | undefined> {
  const v = own(p, key);
  if (v === undefined || isOneOf(allowed, v)) return value(v);
  return invalid({ code: 'invalid_policy', key, value: v });
}

function needRecord(p: P, field: string): Field<Record<string, unknown>> {
  const v = own(p, field);
  return isRecord(v) ? value(v) : invalid({ code: 'missing_field', field });
}

function edgesOf(p: P): Field<Edge[]> {
  const edges = own(p, 'edges');
  if (!Array.isArray(edges)) return invalid({ code: 'missing_edges' });
  const out: Edge[] = [];
  for (const e of edges) {
    if (!isEdge(e)) return invalid({ code: 'invalid_edges' });
    out.push([e[0], e[1]]);
  }
  return value(out);
}

/** A scale target: an integer 0..MAX_AGENTS_LIMIT (larger values could never pass the cap). */
export function isValidCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_AGENTS_LIMIT;
}

/** A record `validateAgent` accepts is an IrAgent: the one place that claim is made. */
function isIrAgent(p: P): p is P & IrAgent {
  return validateAgent(p) === null;
}

/** A record `validateObject` accepts is an IrObject. */
function isIrObject(p: P): p is P & IrObject {
  return validateObject(p) === null;
}

function withInflight<T extends object>(payload: T, onInflight: OnInflight | undefined): T & { on_inflight?: OnInflight } {
  return onInflight === undefined ? payload : { ...payload, on_inflight: onInflight };
}

function parseRemove(p: P): Field<RemoveNodePayload> {
  const name = needString(p, 'name');
  if (name.kind === 'invalid') return name;
  const onInflight = enumField(p, 'on_inflight', ON_INFLIGHT);
  return onInflight.kind === 'invalid' ? onInflight : value(withInflight({ name: name.value }, onInflight.value));
}

function parseScale(p: P): PayloadParse {
  const base = needString(p, 'base_name');
  if (base.kind === 'invalid') return base;
  const count = own(p, 'target_count');
  if (!isValidCount(count)) return invalid({ code: 'invalid_count' });
  const onInflight = enumField(p, 'on_inflight', ON_INFLIGHT);
  if (onInflight.kind === 'invalid') return onInflight;
  const payload = withInflight({ base_name: base.value, target_count: count }, onInflight.value);
  return { kind: 'ok', op: { op: 'scale_agent_group', payload } };
}

function digestField(p: P, key: 'from' | 'to'): Field<string> {
  const d = own(p, key);
  return typeof d === 'string' && DIGEST_RE.test(d) ? value(d) : invalid({ code: 'invalid_digest', key });
}

function parseBump(p: P): PayloadParse {
  const target = needString(p, 'target');
  if (target.kind === 'invalid') return target;
  const field = own(p, 'field');
  if (!isOneOf(BUMP_FIELDS, field)) return invalid({ code: 'invalid_bump_field' });
  const from = digestField(p, 'from');
  if (from.kind === 'invalid') return from;
  const to = digestField(p, 'to');
  if (to.kind === 'invalid') return to;
  const migration = enumField(p, 'migration', MIGRATIONS);
  if (migration.kind === 'invalid') return migration;
  const onInflight = enumField(p, 'on_inflight', ON_INFLIGHT);
  if (onInflight.kind === 'invalid') return onInflight;
  const pinned = { target: target.value, field, from: from.value, to: to.value };
  const payload = withInflight(migration.value === undefined ? pinned : { ...pinned, migration: migration.value }, onInflight.value);
  return { kind: 'ok', op: { op: 'bump_package', payload } };
}

function parseUpdateConfig(p: P): PayloadParse {
  const target = needString(p, 'target');
  if (target.kind === 'invalid') return target;
  const config = needRecord(p, 'config');
  if (config.kind === 'invalid') return config;
  return { kind: 'ok', op: { op: 'update_config', payload: { target: target.value, config: config.value } } };
}

/** Per-op payload rules (docs/ir.md), answering the typed op. The payload is already known to be an object. */
export function parsePayload(op: OpName, p: P): PayloadParse {
  switch (op) {
    case 'add_agent':
      return isIrAgent(p) ? { kind: 'ok', op: { op, payload: p } } : invalid(validateAgent(p) ?? { code: 'invalid_payload' });
    case 'add_object':
      return isIrObject(p) ? { kind: 'ok', op: { op, payload: p } } : invalid(validateObject(p) ?? { code: 'invalid_payload' });
    case 'remove_agent':
    case 'remove_object': {
      const payload = parseRemove(p);
      return payload.kind === 'invalid' ? payload : { kind: 'ok', op: { op, payload: payload.value } };
    }
    case 'add_topology_edges':
    case 'remove_topology_edges': {
      const edges = edgesOf(p);
      return edges.kind === 'invalid' ? edges : { kind: 'ok', op: { op, payload: { edges: edges.value } } };
    }
    case 'scale_agent_group':
      return parseScale(p);
    case 'bump_package':
      return parseBump(p);
    case 'set_options': {
      const options = needRecord(p, 'options');
      return options.kind === 'invalid' ? options : { kind: 'ok', op: { op, payload: { options: options.value } } };
    }
    case 'update_config':
      return parseUpdateConfig(p);
  }
}
