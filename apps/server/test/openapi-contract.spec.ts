/**
 * The document describes what the server really answers: over a real engine (mock agents), each answer
 * below is checked against the documented schema of its operation and status — every required field
 * present with its JSON type, no field the document does not name (where it says additionalProperties
 * false), and every error code among the codes documented for that operation and status.
 */
import request from 'supertest';
import { buildOpenApiDocument } from '../src/http/openapi/build-document';
import type { JsonSchema } from '../src/http/openapi/json-schema';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

const doc = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, JsonSchema> }>>;
  components: { schemas: Record<string, JsonSchema> };
};

function resolve(schema: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  return typeof ref === 'string' ? resolve(doc.components.schemas[ref.replace('#/components/schemas/', '')] as JsonSchema) : schema;
}

const TYPE_OF = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/** Every way `value` departs from `schema` (a JSON Schema subset: what zod writes). */
function mismatches(value: unknown, raw: JsonSchema, at: string): string[] {
  const schema = resolve(raw);
  const options = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (options !== undefined) return options.some((o) => mismatches(value, o, at).length === 0) ? [] : [`${at}: matches no option`];
  if (Array.isArray(schema['allOf'])) return (schema['allOf'] as JsonSchema[]).flatMap((s) => mismatches(value, s, at));
  if ('const' in schema && value !== schema['const']) return [`${at}: expected ${JSON.stringify(schema['const'])}`];
  if (Array.isArray(schema['enum']) && !(schema['enum'] as unknown[]).includes(value))
    return [`${at}: ${JSON.stringify(value)} not in enum`];
  const type = schema['type'];
  const actual = TYPE_OF(value);
  if (typeof type === 'string' && type !== actual && !(type === 'number' && actual === 'integer'))
    return [`${at}: expected ${type}, got ${actual}`];
  if (actual === 'array' && schema['items'] !== undefined && typeof schema['items'] === 'object') {
    return (value as unknown[]).flatMap((v, i) => mismatches(v, schema['items'] as JsonSchema, `${at}[${i}]`));
  }
  if (actual !== 'object' || schema['properties'] === undefined) return [];
  const props = schema['properties'] as Record<string, JsonSchema>;
  const obj = value as Record<string, unknown>;
  const out = ((schema['required'] ?? []) as string[]).filter((k) => !(k in obj)).map((k) => `${at}.${k}: missing`);
  for (const [k, v] of Object.entries(obj)) {
    if (props[k] !== undefined) out.push(...mismatches(v, props[k] as JsonSchema, `${at}.${k}`));
    else if (schema['additionalProperties'] === false) out.push(`${at}.${k}: not in the document`);
  }
  return out;
}

function documented(method: string, path: string, status: number): JsonSchema {
  const response = doc.paths[path]?.[method]?.responses[String(status)] as { content?: Record<string, { schema: JsonSchema }> } | undefined;
  const schema = response?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${method.toUpperCase()} ${path} documents no JSON answer for ${status}`);
  return schema;
}

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer();
  const config = {
    name: 'oc',
    agents: [mockAgent('a'), mockAgent('b')],
    objects: [{ name: 'rec', handler: 'recorder' }],
    topology: [['a', 'b']],
  };
  await request(s.url).post('/api/swarms').send({ config }).expect(201);
  await waitFor(async () => (await request(s.url).get('/api/swarms/oc/agents/a')).body.state === 'idle', 'a idle');
  await request(s.url).post('/api/swarms/oc/agents/a/task').send({ task: 'hi' }).expect(200);
  await waitFor(
    async () => (await request(s.url).get('/api/swarms/oc/agents/a/turns')).body.turns?.[0]?.status === 'completed',
    'turn done',
  );
});
afterAll(async () => {
  await s.close();
});

/** Every row has its four cells (a missing body is `null`): jest would pass `done` for a missing last one. */
type Case = readonly [method: 'get' | 'post' | 'patch' | 'delete', url: string, template: string, body: unknown];
const CASES: readonly Case[] = [
  ['get', '/', '/', null],
  ['get', '/api/swarms', '/api/swarms', null],
  ['get', '/api/swarms/oc', '/api/swarms/{s}', null],
  ['get', '/api/swarms/oc/agents', '/api/swarms/{s}/agents', null],
  ['get', '/api/swarms/oc/agents/a', '/api/swarms/{s}/agents/{a}', null],
  ['get', '/api/swarms/oc/agents/a/turns', '/api/swarms/{s}/agents/{a}/turns', null],
  ['get', '/api/swarms/oc/agents/a/history', '/api/swarms/{s}/agents/{a}/history', null],
  ['get', '/api/swarms/oc/agents/a/logs', '/api/swarms/{s}/agents/{a}/logs', null],
  ['get', '/api/swarms/oc/messages', '/api/swarms/{s}/messages', null],
  ['get', '/api/swarms/oc/topology', '/api/swarms/{s}/topology', null],
  ['get', '/api/swarms/oc/objects', '/api/swarms/{s}/objects', null],
  ['get', '/api/swarms/oc/objects/rec', '/api/swarms/{s}/objects/{o}', null],
  ['get', '/api/swarms/oc/overlay', '/api/swarms/{s}/overlay', null],
  ['get', '/api/events?limit=20', '/api/events', null],
  ['get', '/api/swarms/oc/events?limit=5', '/api/swarms/{s}/events', null],
  ['get', '/api/swarms/oc/agents/a/events', '/api/swarms/{s}/agents/{a}/events', null],
  ['get', '/api/skills', '/api/skills', null],
  ['post', '/api/swarms/oc/message', '/api/swarms/{s}/message', { from: 'op', to: 'a', content: 'x' }],
  ['post', '/api/swarms/oc/agents/b/task', '/api/swarms/{s}/agents/{a}/task', { task: 'go' }],
  ['patch', '/api/swarms/oc/topology', '/api/swarms/{s}/topology', { add: [['b', 'a']] }],
  ['post', '/api/swarms/oc/snapshot', '/api/swarms/{s}/snapshot', null],
  ['post', '/api/config/validate', '/api/config/validate', { config: { name: 'v', agents: [mockAgent('x')] } }],
  // refusals: the error body and its code must be documented for that operation and status
  ['get', '/api/swarms/nope', '/api/swarms/{s}', null],
  ['get', '/api/swarms/oc/agents/zz', '/api/swarms/{s}/agents/{a}', null],
  ['post', '/api/swarms/oc/agents/a/task', '/api/swarms/{s}/agents/{a}/task', { task: '' }],
  ['get', '/api/events?level=loud', '/api/events', null],
  ['get', '/api/skills/..', '/api/skills/{name}', null],
  ['post', '/api/swarms', '/api/swarms', { config: { name: 'oc', agents: [mockAgent('a')] } }],
  ['post', '/api/config/validate', '/api/config/validate', { config: { name: 'bad name' } }],
  ['delete', '/api/swarms/oc?purge=maybe', '/api/swarms/{s}', null],
];

test.each(CASES)('%s %s answers what the document says', async (method, url, template, body) => {
  const req = request(s.url)[method](url);
  const res = await (body === null ? req : req.send(body as object));
  expect(mismatches(res.body, documented(method, template, res.status), `${method.toUpperCase()} ${url} ${res.status}`)).toEqual([]);
});

test.each<[string, Record<string, unknown>, string]>([
  ['an undocumented field', { status: 'sent', agent: 'a', id: 'i', queued: 1, extra: true }, 'x.extra: not in the document'],
  ['a missing field', { status: 'sent', agent: 'a', id: 'i' }, 'x.queued: missing'],
  ['a wrong type', { status: 'sent', agent: 'a', id: 'i', queued: '1' }, 'x.queued: expected number, got string'],
  ['an undocumented code', { error: 'made_up', message: 'm' }, 'x.error: "made_up" not in enum'],
])('the checker itself reports %s', (what, body, finding) => {
  const status = what === 'an undocumented code' ? 404 : 200;
  expect(mismatches(body, documented('post', '/api/swarms/{s}/agents/{a}/task', status), 'x')).toContain(finding);
});
