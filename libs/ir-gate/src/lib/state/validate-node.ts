import { isName } from '../config/names';
import { refScheme, validateRef } from '../ref/ref';
import type { IrError } from './types';
import { isRecord, own } from './types';

type SlotRule = { kind?: 'data' | 'code'; notSwarmidx?: boolean };

/** Validates one slot ref and its privilege typing (data/code boundary, docs/ir.md). */
function checkSlot(node: Record<string, unknown>, slot: string, rule: SlotRule): IrError | null {
  const value = own(node, slot);
  if (value === undefined) return { code: 'missing_slot', slot };
  return checkRefInSlot(value, slot, rule);
}

function checkRefInSlot(value: unknown, slot: string, rule: SlotRule): IrError | null {
  const err = validateRef(value);
  if (err !== null) return { ...err, slot };
  const ref = value as Record<string, unknown>;
  if (rule.kind !== undefined && own(ref, 'kind') !== rule.kind) return { code: 'slot_type_mismatch', slot };
  if (rule.notSwarmidx === true && refScheme(ref['ref'] as string) === 'swarmidx') return { code: 'slot_type_mismatch', slot };
  return null;
}

function checkModel(agent: Record<string, unknown>): IrError | null {
  const model = own(agent, 'model');
  if (model === undefined) return { code: 'missing_slot', slot: 'model' };
  if (!isRecord(model)) return { code: 'invalid_model_slot' };
  if (Object.prototype.hasOwnProperty.call(model, 'policy')) {
    return checkRefInSlot(model['policy'], 'model.policy', { kind: 'data' });
  }
  return checkRefInSlot(model, 'model', { notSwarmidx: true });
}

function checkName(node: Record<string, unknown>): IrError | null {
  const name = own(node, 'name');
  if (typeof name !== 'string' || name === '') return { code: 'missing', field: 'name' };
  return isName(name) ? null : { code: 'invalid_name', name };
}

function checkOptionalObject(node: Record<string, unknown>, field: string): IrError | null {
  const value = own(node, field);
  return value === undefined || isRecord(value) ? null : { code: 'invalid', field };
}

/** An IR Agent (docs/ir.md). Errors carry `agent` when the name is known. */
export function validateAgent(x: unknown): IrError | null {
  if (!isRecord(x)) return { code: 'invalid', field: 'agent' };
  const err =
    checkName(x) ??
    checkSlot(x, 'body', { kind: 'data' }) ??
    checkModel(x) ??
    checkSlot(x, 'backend', { notSwarmidx: true }) ??
    checkOptionalObject(x, 'overrides') ??
    checkOptionalObject(x, 'config');
  return err === null ? null : withNode(err, 'agent', x);
}

/** An IR Object (docs/ir.md). */
export function validateObject(x: unknown): IrError | null {
  if (!isRecord(x)) return { code: 'invalid', field: 'object' };
  const err = checkName(x) ?? checkSlot(x, 'handler', { kind: 'code' }) ?? checkOptionalObject(x, 'config');
  return err === null ? null : withNode(err, 'object', x);
}

function withNode(err: IrError, role: 'agent' | 'object', node: Record<string, unknown>): IrError {
  const name = own(node, 'name');
  return typeof name === 'string' && isName(name) && err[role] === undefined ? { ...err, [role]: name } : err;
}
