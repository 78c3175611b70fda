import { MAX_AGENTS_LIMIT } from '../config/limits';
import { DIGEST_RE } from '../ref/ref';
import type { IrError, OpName } from '../state/types';
import { own } from '../state/types';
import { isEdge } from '../state/validate-state';
import { validateAgent, validateObject } from '../state/validate-node';
import { isRecord } from '../state/types';

export const ON_INFLIGHT = ['drain', 'kill', 'quarantine'] as const;
export const MIGRATIONS = ['state_migrate', 'restart'] as const;
export const BUMP_FIELDS = ['body', 'model', 'backend', 'handler'] as const;

type P = Record<string, unknown>;

function needString(p: P, field: string): IrError | null {
  const v = own(p, field);
  return typeof v === 'string' && v !== '' ? null : { code: 'missing_field', field };
}

function enumField(p: P, key: string, allowed: readonly string[]): IrError | null {
  const v = own(p, key);
  return v === undefined || (typeof v === 'string' && allowed.includes(v)) ? null : { code: 'invalid_policy', key, value: v };
}

function checkEdges(p: P): IrError | null {
  const edges = own(p, 'edges');
  if (!Array.isArray(edges)) return { code: 'missing_edges' };
  return edges.every(isEdge) ? null : { code: 'invalid_edges' };
}

/** A scale target: an integer 0..MAX_AGENTS_LIMIT (larger values could never pass the cap). */
export function isValidCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_AGENTS_LIMIT;
}

function checkScale(p: P): IrError | null {
  return (
    needString(p, 'base_name') ??
    (isValidCount(own(p, 'target_count')) ? null : { code: 'invalid_count' }) ??
    enumField(p, 'on_inflight', ON_INFLIGHT)
  );
}

function checkBump(p: P): IrError | null {
  const err = needString(p, 'target');
  if (err !== null) return err;
  const field = own(p, 'field');
  if (typeof field !== 'string' || !(BUMP_FIELDS as readonly string[]).includes(field)) return { code: 'invalid_bump_field' };
  for (const key of ['from', 'to']) {
    const d = own(p, key);
    if (typeof d !== 'string' || !DIGEST_RE.test(d)) return { code: 'invalid_digest', key };
  }
  return enumField(p, 'migration', MIGRATIONS) ?? enumField(p, 'on_inflight', ON_INFLIGHT);
}

function checkObjectField(p: P, field: string): IrError | null {
  return isRecord(own(p, field)) ? null : { code: 'missing_field', field };
}

/** Per-op payload rules (docs/ir.md). The payload is already known to be an object. */
export function validatePayload(op: OpName, p: P): IrError | null {
  switch (op) {
    case 'add_agent':
      return validateAgent(p);
    case 'add_object':
      return validateObject(p);
    case 'remove_agent':
    case 'remove_object':
      return needString(p, 'name') ?? enumField(p, 'on_inflight', ON_INFLIGHT);
    case 'add_topology_edges':
    case 'remove_topology_edges':
      return checkEdges(p);
    case 'scale_agent_group':
      return checkScale(p);
    case 'bump_package':
      return checkBump(p);
    case 'set_options':
      return checkObjectField(p, 'options');
    case 'update_config':
      return needString(p, 'target') ?? checkObjectField(p, 'config');
  }
}
