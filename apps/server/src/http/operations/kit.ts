/** Building blocks shared by the operation tables. */
import { z } from 'zod';
import { ANSWER_SCHEMAS, COMMAND_SCHEMAS, PLAN_ERROR_CODES } from '@genswarms/engine';
import type { EngineErrorCode } from '@genswarms/engine';
import type { ErrorSpec } from './operation';

/** `?limit` of 1..max entries. */
export const limit = (max: number, fallback: number) =>
  z.object({ limit: z.int().min(1).max(max).optional().describe(`At most this many entries, 1-${max} (default ${fallback})`) });
/** A `?name=true|false` flag. */
export const flag = (name: string, what: string) =>
  z.object({ [name]: z.enum(['true', 'false']).optional().describe(what) }) as z.ZodObject;
/** A request body named after its engine command schema. */
export const body = (name: keyof typeof COMMAND_SCHEMAS) => ({ name, schema: COMMAND_SCHEMAS[name] });
/** A success answer named after its engine answer schema. */
export const ok = (name: keyof typeof ANSWER_SCHEMAS, status: 200 | 201 = 200) => ({ status, name, schema: ANSWER_SCHEMAS[name] });

export const SWARM: readonly ErrorSpec[] = ['swarm_not_found'];
export const AGENT: readonly ErrorSpec[] = ['swarm_not_found', 'agent_not_found'];
export const OBJECT: readonly ErrorSpec[] = ['swarm_not_found', 'object_not_found'];
export const CONFIG_SOURCE: readonly EngineErrorCode[] = [
  'validation_failed',
  'invalid_config_path',
  'unsupported_format',
  'config_unreadable',
  'config_too_large',
  'config_parse_error',
  'ir_validation_failed',
];
export const START: readonly ErrorSpec[] = [
  ...CONFIG_SOURCE,
  'already_exists',
  'agent_cap_exceeded',
  ...PLAN_ERROR_CODES,
  'host_limit',
  'runner_error',
];
