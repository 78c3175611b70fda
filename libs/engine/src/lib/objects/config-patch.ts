/** docs/rest-api.md object config PATCH: the checks, in the exact order, before anything changes. */
import { HOST_ESCAPE_KEYS, isRecord } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { ObjectHandler } from './handler';

export const PATCH_MAX_KEYS = 200;

/** Keys at all depths, array contents included (each element counts as one key). */
export function countPatchKeys(value: unknown, budget = PATCH_MAX_KEYS + 1): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < budget) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      count += v.length;
      stack.push(...v);
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      count += keys.length;
      for (const k of keys) stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return count;
}

/** Returns the checked patch or throws the first refusal (1)-(5). */
export function checkConfigPatch(handler: ObjectHandler, patch: unknown): Record<string, unknown> {
  if (!isRecord(patch))
    throw new EngineError('validation_failed', 'config must be an object.', {
      issues: [{ path: 'config', message: 'expected an object' }],
    });
  const forbidden = Object.keys(patch)
    .filter((k) => HOST_ESCAPE_KEYS.includes(k))
    .sort();
  if (forbidden.length > 0) {
    throw new EngineError(
      'forbidden_config_keys',
      'Host-escape keys are not accepted from a dynamic mutation.',
      { keys: [...new Set(forbidden)] },
      { status: 422 },
    );
  }
  if (countPatchKeys(patch) > PATCH_MAX_KEYS)
    throw new EngineError('patch_too_large', 'The patch has more than 200 keys.', { limit: PATCH_MAX_KEYS });
  const schema = handler.configSchema;
  if (schema === undefined) throw new EngineError('no_config_schema', 'This object handler has no config schema.');
  const immutable = Object.keys(patch)
    .filter((k) => !Object.prototype.hasOwnProperty.call(schema, k) || schema[k]?.mutable !== true)
    .sort();
  if (immutable.length > 0) throw new EngineError('immutable_keys', 'These config keys are not mutable.', { keys: immutable });
  return patch;
}
