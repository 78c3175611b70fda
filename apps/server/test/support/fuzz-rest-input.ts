/**
 * Generated HTTP requests for the `rest` fuzz target: every route of docs/openapi.json, its path params
 * (live names, hostile strings, raw percent-escapes and dot segments), its documented query params plus
 * stray ones, and a body — a known-good body of the route mutated key by key, raw bytes under any content
 * type, damaged JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { REPO_ROOT, hostileValue, mutatedConfig } from '@genswarms/tools';

export interface RestInput {
  readonly method: string;
  /** Raw request target (already escaped: it goes on the request line as it is). */
  readonly path: string;
  readonly contentType: string | null;
  readonly body: string | Uint8Array | null;
}

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
  readonly query: readonly string[];
  readonly hasBody: boolean;
}

/** The operations of the committed OpenAPI document (the generated list of every route). */
export function openApiRoutes(): Route[] {
  const doc = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown; responses?: unknown }>>;
  };
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (typeof op !== 'object' || op.responses === undefined) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      routes.push({ method: method.toUpperCase(), segments: path.split('/').slice(1), query, hasBody: op.requestBody !== undefined });
    }
  }
  return routes;
}

/** Names that exist in the fuzzed server (swarm `fz`: agents a, b; objects o, c). */
const LIVE = { s: ['fz'], a: ['a', 'b'], base: ['a', 'b'], o: ['o', 'c'], t: ['t1', 'turn-0'], name: ['nope', 'x'] } as const;

const RAW_SEGMENTS = ['%', '%zz', '..', '.', '%2e%2e', '%2F', '%00', '%ff%fe', '', '%20', 'a%2Fb', '~', '*', '%C0%AE'];

const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...RAW_SEGMENTS),
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.constantFrom('x'.repeat(64), 'A'.repeat(65), '_x', '9a', 'a.b').map(encodeURIComponent),
);

function paramArb(name: string): fc.Arbitrary<string> {
  const live = (LIVE as Record<string, readonly string[]>)[name] ?? ['x'];
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...live) }, { weight: 1, arbitrary: segment });
}

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('true', 'false', '0', '-1', '1', '10', '1e3', '99999999999999999999', 'NaN', '', 'info', 'error', 'json', 'yaml', 'a'),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%00', 'a&b', '[]'),
);

function queryArb(documented: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 3, arbitrary: documented.length > 0 ? fc.constantFrom(...documented) : fc.constant('limit') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'limit[a]', 'x', 'since_id[]', 'token') },
  );
  return fc
    .array(fc.tuple(key, queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
}

/** A known-good body per route (path template), the seed the body mutations start from. */
const GOOD_BODIES: Record<string, readonly Record<string, unknown>[]> = {
  '/api/swarms': [
    { config: { name: 'fzn', agents: [{ name: 'm', backend: { type: 'mock', opts: { replies: ['ok'] } } }] } },
    { config_path: 'fz.yaml' },
  ],
  '/api/swarms/{s}/message': [{ from: 'op', to: 'a', content: 'hi' }],
  '/api/swarms/{s}/agents': [{ name: 'n1', backend: { type: 'mock' }, connections: ['a'], incoming: ['b'] }],
  '/api/swarms/{s}/agents/{a}/task': [{ task: 'hello' }],
  '/api/swarms/{s}/agents/{base}/scale': [{ count: 2 }],
  '/api/swarms/{s}/topology': [{ add: [['a', 'b']], remove: [['b', 'a']] }],
  '/api/swarms/{s}/objects': [{ name: 'o2', handler: 'echo', connections: ['a'] }],
  '/api/swarms/{s}/objects/{o}/config': [{ config: { step: 2 } }],
  '/api/config/validate': [
    { config: { name: 'v', agents: [{ name: 'a' }] } },
    { content: 'name: v\nagents: [{name: a}]\n', format: 'yaml' },
    { config_path: 'fz.yaml' },
  ],
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '*/*',
  '',
];

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    // expected: a value JSON cannot hold (a BigInt) is sent as a bare word
    return 'undefined';
  }
}

function bodyArb(template: string): fc.Arbitrary<Pick<RestInput, 'contentType' | 'body'>> {
  const seeds = GOOD_BODIES[template] ?? [{ x: 1 }];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...seeds).map((b) => ({ contentType: 'application/json', body: JSON.stringify(b) })) },
    { weight: 6, arbitrary: mutatedConfig(seeds).map((b) => ({ contentType: 'application/json', body: jsonText(b) })) },
    { weight: 1, arbitrary: hostileValue.map((b) => ({ contentType: 'application/json', body: jsonText(b) })) },
    {
      weight: 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom(...CONTENT_TYPES),
        body: fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 300 })),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.nat(), fc.integer({ min: 1, max: 5 })).map(([b, at, cut]) => {
        const text = JSON.stringify(b);
        const i = at % text.length;
        return { contentType: 'application/json', body: text.slice(0, i) + text.slice(i + cut) };
      }),
    },
    { weight: 1, arbitrary: fc.constant({ contentType: null, body: null }) },
  );
}

/** One generated request to one route of the document. */
export function restInput(): fc.Arbitrary<RestInput> {
  const perRoute = openApiRoutes().map((route) => {
    const template = `/${route.segments.join('/')}`;
    const segs = route.segments.map((s) => (s.startsWith('{') ? paramArb(s.slice(1, -1)) : fc.constant(s)));
    const body = route.hasBody
      ? bodyArb(template)
      : fc.oneof({ weight: 4, arbitrary: fc.constant({ contentType: null, body: null }) }, { weight: 1, arbitrary: bodyArb(template) });
    const method = fc.oneof(
      { weight: 20, arbitrary: fc.constant(route.method) },
      { weight: 1, arbitrary: fc.constantFrom('PUT', 'OPTIONS', 'PATCH', 'POST', 'GET', 'DELETE') },
    );
    return fc
      .tuple(method, fc.tuple(...segs), queryArb(route.query), body)
      .map(([m, parts, query, b]) => ({ method: m, path: `/${parts.join('/')}${query}`, ...b }));
  });
  return fc.oneof(...perRoute);
}
