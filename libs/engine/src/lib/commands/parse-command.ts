/**
 * Parsing a command at the edge: each parser runs its schema once and turns a failure into the
 * EngineError the API answers (docs/rest-api.md error bodies). Issues carry key paths and messages,
 * never the offending values.
 */
import type { z } from 'zod';
import { EngineError } from '../errors/engine-error';
import type { StartInput } from '../swarms/config-input';
import {
  AddAgentCommandSchema,
  AddObjectCommandSchema,
  MessageCommandSchema,
  ObjectConfigPatchCommandSchema,
  ScaleCommandSchema,
  StartSwarmCommandSchema,
  TaskCommandSchema,
  TopologyPatchCommandSchema,
  type AddAgentCommand,
  type AddObjectCommand,
  type MessageCommand,
  type ObjectConfigPatchCommand,
  type ScaleCommand,
  type TaskCommand,
  type TopologyPatchCommand,
} from './command-schemas';

export interface CommandIssue {
  readonly path: string;
  readonly message: string;
}

/** zod issues → error-body `issues` (paths and messages only). */
export function issuesOf(error: z.ZodError): CommandIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Parses with `schema`; a failure is 400 `validation_failed` with `issues` and `message`. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, message = 'The request body is invalid.'): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new EngineError('validation_failed', message, { issues: issuesOf(parsed.error) });
}

const INVALID_NAME_ISSUES = [{ path: 'name', message: 'invalid name' }];

/** A new node's `name` off the Name grammar is `invalid_name`, before any other check. */
function refuseBadName(error: z.ZodError): void {
  if (error.issues.some((i) => i.path.length === 0 || i.path[0] === 'name')) {
    throw new EngineError('invalid_name', 'name must follow the Name grammar.', { issues: INVALID_NAME_ISSUES });
  }
}

export function parseStartCommand(body: unknown): StartInput {
  const parsed = parseWith(StartSwarmCommandSchema, body, 'Send exactly one of {config} or {config_path}.');
  if (parsed.config !== undefined) return { config: parsed.config };
  if (typeof parsed.config_path !== 'string') throw new EngineError('invalid_config_path', 'config_path must be a non-empty string.');
  return { path: parsed.config_path };
}

export function parseTaskCommand(body: unknown): TaskCommand {
  return parseWith(TaskCommandSchema, body, 'task must be a non-empty string.');
}

export function parseMessageCommand(body: unknown): MessageCommand {
  return parseWith(MessageCommandSchema, body, 'from, to and content must be strings.');
}

export function parseAddAgentCommand(body: unknown): AddAgentCommand {
  const parsed = AddAgentCommandSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  refuseBadName(parsed.error);
  const where = String(parsed.error.issues[0]?.path[0] ?? '');
  throw new EngineError('validation_failed', 'expected a list of names', {
    issues: [{ path: where, message: 'expected a list of names' }],
  });
}

export function parseAddObjectCommand(body: unknown): AddObjectCommand {
  const parsed = AddObjectCommandSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  refuseBadName(parsed.error);
  throw new EngineError('validation_failed', 'Expected an object.', { issues: issuesOf(parsed.error) });
}

export function parseScaleCommand(body: unknown): ScaleCommand {
  const parsed = ScaleCommandSchema.safeParse(body);
  if (!parsed.success) throw new EngineError('invalid_count', 'count must be a non-negative integer.');
  return parsed.data;
}

export function parseTopologyPatchCommand(body: unknown): TopologyPatchCommand {
  return parseWith(TopologyPatchCommandSchema, body, 'Every edge must be [from, to] or {from, to}; nothing was changed.');
}

export function parseObjectConfigPatchCommand(body: unknown): ObjectConfigPatchCommand {
  return parseWith(ObjectConfigPatchCommandSchema, body, 'Send {config: {...}}.');
}

export function invalidQuery(param: string, why: string): EngineError {
  return new EngineError('invalid_query', `Invalid query parameter ${param}: ${why}.`, { param });
}

/** A `?limit`-style value: digits only, 1..max; absent → `fallback`; anything else → `invalid_query`. */
export function parseLimitParam(raw: string | undefined, max: number, fallback: number, param = 'limit'): number {
  if (raw === undefined) return fallback;
  const n = /^[0-9]{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidQuery(param, `expected an integer 1-${max}`);
  return n;
}

export type SnapshotFormat = 'json' | 'yaml';

/** `?format=json|yaml` (absent → json). */
export function parseSnapshotFormat(raw: string | undefined): SnapshotFormat {
  if (raw === undefined || raw === 'json') return 'json';
  if (raw === 'yaml') return 'yaml';
  throw invalidQuery('format', 'expected json or yaml');
}
