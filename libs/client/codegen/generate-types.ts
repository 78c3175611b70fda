/**
 * Renders src/lib/generated/api-types.ts from docs/openapi.json: every component schema, every
 * operation (method, path, params, query, body, answer, error codes) and the socket.io section.
 * Regenerate with `npm run gen-types -w @genswarms/client` after `npm run gen-openapi -w @genswarms/server`.
 */
import { docComment, toTsType } from './json-schema-to-ts';
import type { JsonSchema } from './json-schema-to-ts';

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}
interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: JsonSchema }> };
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: JsonSchema }> }>;
}
interface SocketSection {
  readonly events: Record<string, { readonly payload: JsonSchema; readonly ack: JsonSchema }>;
  readonly pushes: Record<string, { readonly payload: JsonSchema }>;
}
/** The parts of an OpenAPI document the generator reads. */
export interface ApiDocument {
  readonly paths: Record<string, Record<string, OperationObject>>;
  readonly components: { readonly schemas: Record<string, JsonSchema> };
  readonly 'x-socketio': SocketSection;
}

const ref = (name: string): string => `Schemas[${JSON.stringify(name)}]`;
const ts = (schema: JsonSchema): string => toTsType(schema, ref);
const JSON_TYPE = 'application/json';

function paramsType(params: readonly Parameter[], where: 'path' | 'query'): string {
  const own = params.filter((p) => p.in === where);
  if (own.length === 0) return 'Record<string, never>';
  const lines = own.map((p) => `${docComment(p.description)}${p.name}${p.required ? '' : '?'}: ${ts(p.schema)};`);
  return `{\n${lines.join('\n')}\n}`;
}

function errorCodes(op: OperationObject): string[] {
  const codes = new Set<string>();
  for (const [status, response] of Object.entries(op.responses)) {
    if (Number(status) < 400) continue;
    const all = (response.content?.[JSON_TYPE]?.schema['allOf'] ?? []) as JsonSchema[];
    for (const part of all) {
      const error = (part['properties'] as Record<string, JsonSchema> | undefined)?.['error'];
      for (const code of (error?.['enum'] ?? []) as string[]) codes.add(code);
    }
  }
  return [...codes].sort();
}

function successOf(op: OperationObject): { status: string; type: string; text: boolean } {
  const [status, response] = Object.entries(op.responses).find(([s]) => Number(s) < 300) ?? ['200', {}];
  const content = response.content ?? {};
  const json = content[JSON_TYPE];
  if (json !== undefined) return { status, type: ts(json.schema), text: false };
  return { status, type: 'string', text: true };
}

function operationEntry(method: string, path: string, op: OperationObject): { type: string; route: string; codes: string[] } {
  const params = op.parameters ?? [];
  const body = op.requestBody?.content[JSON_TYPE]?.schema;
  const success = successOf(op);
  const codes = errorCodes(op);
  const type = [
    `${docComment(op.summary)}${op.operationId}: {`,
    `method: ${JSON.stringify(method.toUpperCase())};`,
    `path: ${JSON.stringify(path)};`,
    `params: ${paramsType(params, 'path')};`,
    `query: ${paramsType(params, 'query')};`,
    `body: ${body === undefined ? 'undefined' : ts(body)};`,
    `response: ${success.type};`,
    `errorCode: ${codes.length === 0 ? 'never' : codes.map((c) => JSON.stringify(c)).join(' | ')};`,
    '};',
  ].join('\n');
  const route = `${op.operationId}: { method: ${JSON.stringify(method.toUpperCase())}, path: ${JSON.stringify(path)}, text: ${success.text} },`;
  return { type, route, codes };
}

/** The text of api-types.ts (before Prettier). */
export function renderApiTypes(doc: ApiDocument): string {
  const schemas = Object.entries(doc.components.schemas).map(
    ([name, schema]) => `${docComment(schema['description'])}${JSON.stringify(name)}: ${ts(schema)};`,
  );
  const entries = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => operationEntry(method, path, op)),
  );
  const allCodes = [...new Set(entries.flatMap((e) => e.codes))].sort();
  const socket = doc['x-socketio'];
  const events = Object.entries(socket.events).map(([event, e]) => `${event}: { payload: ${ts(e.payload)}; ack: ${ts(e.ack)} };`);
  const pushes = Object.entries(socket.pushes).map(([push, p]) => `${push}: ${ts(p.payload)};`);
  return [
    '// Generated from docs/openapi.json by libs/client/codegen/generate-types.ts: do not edit.',
    '// Regenerate with `npm run gen-types -w @genswarms/client`.',
    '',
    '/** Every component schema of the OpenAPI document. */',
    `export interface Schemas {\n${schemas.join('\n')}\n}`,
    '',
    '/** Every REST operation by operationId. */',
    `export interface Operations {\n${entries.map((e) => e.type).join('\n')}\n}`,
    '',
    '/** Method, path template and answer kind of every operation. */',
    `export const OPERATION_ROUTES = {\n${entries.map((e) => e.route).join('\n')}\n} as const;`,
    '',
    '/** Every error code an operation may answer. */',
    `export type ApiErrorCode = ${allCodes.map((c) => JSON.stringify(c)).join(' | ')};`,
    '',
    '/** Client → server socket.io events on `/swarm`: payload and ack. */',
    `export interface SocketEvents {\n${events.join('\n')}\n}`,
    '',
    '/** Server → client pushes on `/swarm`: payload. */',
    `export interface SocketPushes {\n${pushes.join('\n')}\n}`,
    '',
  ].join('\n');
}
