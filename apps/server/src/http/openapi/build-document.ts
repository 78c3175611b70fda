import { isEngineErrorCode, statusForCode, ErrorBodySchema } from '@genswarms/engine';
import type { z } from 'zod';
import { SERVER_VERSION } from '../../version';
import { SchemaComponents } from './json-schema';
import type { JsonSchema } from './json-schema';
import { OPERATIONS, PATH_PARAMS } from '../operations';
import { socketSection } from './socket-section';
import type { ErrorSpec, Operation } from '../operations';

/** Answered by the pipeline before any route (docs/security.md#2-request-pipeline-server-edge): every operation may answer them. */
const PIPELINE_ERRORS: readonly ErrorSpec[] = [
  ['unauthorized', 401],
  ['token_required', 401],
  ['host_not_allowed', 403],
  ['origin_not_allowed', 403],
  ['not_found', 404],
  ['internal_error', 500],
];
/** Answered by the body step to a request that carries a body. */
const BODY_ERRORS: readonly ErrorSpec[] = [
  ['invalid_json', 400],
  ['payload_too_large', 413],
  ['unsupported_media_type', 415],
];

/** A write the store had no room for (disk or quota full under GENSWARMS_HOME): any operation that writes. */
const STORE_ERRORS: readonly ErrorSpec[] = ['storage_full'];

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'No valid token',
  403: 'Host or Origin refused',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Config patch refused',
  500: 'Internal or runner error',
  507: 'No room left to store it (disk full)',
};

const SECURITY: Readonly<Record<Operation['scope'], unknown[]>> = {
  full: [{ bearer: [] }],
  config: [{ bearer: [] }, { configBearer: [] }],
  public: [],
};

/** `/api/swarms/:s` → `/api/swarms/{s}`. */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function codesByStatus(specs: readonly ErrorSpec[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const spec of specs) {
    const [code, status] = typeof spec === 'string' ? [spec, statusForCode(spec)] : spec;
    if (typeof spec === 'string' && !isEngineErrorCode(spec)) throw new Error(`unknown error code ${spec}`);
    const list = out.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    out.set(status, list);
  }
  return out;
}

function errorResponses(op: Operation, components: SchemaComponents): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, other] of Object.entries(op.otherResponses ?? {})) {
    out[status] = {
      description: other.name,
      content: { 'application/json': { schema: components.ref(other.schema, 'output', other.name) } },
    };
  }
  // Public routes answer before the token check and the guards: only a missing route or a crash is left.
  if (op.scope === 'public') return out;
  const errorRef = components.ref(ErrorBodySchema, 'output', 'ErrorBody');
  const writes = op.method !== 'get';
  const specs = [...PIPELINE_ERRORS, ...(op.body === undefined ? [] : BODY_ERRORS), ...(writes ? STORE_ERRORS : []), ...op.errors];
  for (const [status, codes] of [...codesByStatus(specs)].sort((a, b) => a[0] - b[0])) {
    const sorted = [...codes].sort();
    const bad = op.badRequestBody;
    const base = status === 400 && bad !== undefined ? components.ref(bad.schema, 'output', bad.name) : errorRef;
    const schema = { allOf: [base, { type: 'object', properties: { error: { enum: sorted } }, required: ['error'] }] };
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${sorted.join(', ')}`,
      content: { 'application/json': { schema } },
    };
  }
  return out;
}

function parameters(op: Operation, components: SchemaComponents): unknown[] {
  const params: unknown[] = [];
  for (const match of op.path.matchAll(/:([A-Za-z_]+)/g)) {
    const name = match[1] as string;
    const known = PATH_PARAMS[name];
    if (known === undefined) throw new Error(`path parameter :${name} of ${op.path} has no description`);
    params.push({ name, in: 'path', required: true, description: known.description, schema: components.ref(known.schema, 'input') });
  }
  if (op.query === undefined) return params;
  // Query values travel as text but the schemas parse them to their real types (an integer limit, a level
  // enum): the parsed (output) side is what OpenAPI's query parameter schema describes.
  const query = components.resolve(components.ref(op.query, 'output'));
  const props = (query['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query['required'] ?? []) as string[]);
  for (const [name, schema] of Object.entries(props)) {
    const { description, ...rest } = schema;
    params.push({ name, in: 'query', required: required.has(name), description, schema: rest });
  }
  return params;
}

function successResponse(op: Operation, components: SchemaComponents): Record<string, unknown> {
  if (op.success.text !== undefined) {
    return {
      [String(op.success.status)]: {
        description: op.summary,
        content: { [op.success.text]: { schema: components.ref(op.success.schema, 'output') } },
      },
    };
  }
  const schema = components.ref(op.success.schema, 'output', op.success.name);
  const content: Record<string, unknown> = { 'application/json': { schema } };
  if (op.success.yaml === true)
    content['application/yaml'] = { schema: { type: 'string', description: 'The same document as YAML (?format=yaml)' } };
  return { [String(op.success.status)]: { description: op.summary, content } };
}

function operationObject(op: Operation, components: SchemaComponents): Record<string, unknown> {
  const out: Record<string, unknown> = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    security: SECURITY[op.scope],
  };
  const params = parameters(op, components);
  if (params.length > 0) out['parameters'] = params;
  if (op.body !== undefined) {
    const schema = components.ref(op.body.schema as z.ZodType, 'input', op.body.name);
    out['requestBody'] = { required: true, content: { 'application/json': { schema } } };
  }
  out['responses'] = { ...successResponse(op, components), ...errorResponses(op, components) };
  return out;
}

/** The OpenAPI 3.1 document of every operation in `operations` (docs/openapi.json is this, committed). */
export function buildOpenApiDocument(operations: readonly Operation[] = OPERATIONS): Record<string, unknown> {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = toOpenApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: operationObject(op, components) };
  }
  const socketio = socketSection(components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'genswarms',
      version: SERVER_VERSION,
      description: 'REST API of the genswarms server (docs/rest-api.md). Generated from the zod schemas; do not edit.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: 'http://127.0.0.1:4000' }],
    security: [{ bearer: [] }],
    paths,
    'x-socketio': socketio,
    components: {
      schemas: components.all(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'GENSWARMS_API_TOKEN (loopback peers need none when it is unset)' },
        configBearer: { type: 'http', scheme: 'bearer', description: 'GENSWARMS_CONFIG_API_TOKEN (config routes only)' },
      },
    },
  };
}
