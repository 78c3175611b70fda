/**
 * Routes come from one table (apps/server/src/http/operations/): express registers exactly its entries,
 * each with the handler bound by its operationId, and a path is written once in the server's source.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { mountRoutes } from '../src/http/mount-routes';
import { OPERATIONS } from '../src/http/operations';
import type { Operation } from '../src/http/operations';
import type { BindRoute, Route } from '../src/http/route';
import { bindRoutes, ROUTE_HANDLERS } from '../src/http/routes';
import {
  createApp,
  createAuthDeniedReporter,
  createMemoryEventSink,
  createServerLogger,
  DEFAULT_ROUTES,
  IR_GATE_VALIDATOR,
} from '../src/index';
import { fakeEngine } from './support/fake-engine';
import { captureStream, tempDir, testConfig } from './support/harness';
import { routeContext } from './support/route-context';
import { appStack, routerStack, walk } from './support/router-walk';

const SRC = join(__dirname, '../src');
const dir = tempDir('gs-route-table-');
afterAll(() => dir.cleanup());

const entry = (op: { method: string; path: string }): string => `${op.method.toUpperCase()} ${op.path}`;
const TABLE = OPERATIONS.map(entry);
const PUBLIC = OPERATIONS.filter((op) => op.scope === 'public').map(entry);

function appRoutes(withEngine: boolean): { main: string[]; public: string[] } {
  const events = createMemoryEventSink();
  const logger = createServerLogger(captureStream().stream, 'error');
  const engine = withEngine ? fakeEngine({}) : undefined;
  const app = createApp(testConfig(dir.path), {
    engine,
    events,
    logger,
    reportDenial: createAuthDeniedReporter({ events, logger }),
    validator: IR_GATE_VALIDATOR,
  });
  // The public router runs inside the app's step layer (not walkable from the app): mounted on its own.
  const mounted = mountRoutes(DEFAULT_ROUTES, routeContext(dir.path, engine));
  return { main: walk(appStack(app)), public: walk(routerStack(mounted.publicRouter)) };
}

function sourceFiles(at: string): string[] {
  return readdirSync(at, { withFileTypes: true }).flatMap((d) => {
    const file = join(at, d.name);
    if (d.isDirectory()) return sourceFiles(file);
    return d.name.endsWith('.ts') && !d.name.endsWith('.spec.ts') ? [file] : [];
  });
}

describe('express registers the table and nothing else', () => {
  const routes = appRoutes(true);

  it('registers every operation of the table exactly once (public ones before the token check)', () => {
    expect([...routes.main, ...routes.public].sort()).toEqual([...TABLE].sort());
    expect(routes.public.sort()).toEqual([...PUBLIC].sort());
  });

  it('lets exactly the two health probes skip the token check', () => {
    expect(PUBLIC.sort()).toEqual(['GET /healthz', 'GET /readyz']);
  });

  it('accepts the config token on exactly the two config routes (docs/security.md)', () => {
    const config = OPERATIONS.filter((op) => op.scope === 'config').map(entry);
    expect(config.sort()).toEqual(['GET /api/swarms/:s/overlay', 'PATCH /api/swarms/:s/objects/:o/config']);
  });

  it('routes, without an engine, only what answers without one (the rest answers 404)', () => {
    const bare = appRoutes(false);
    expect([...bare.main, ...bare.public].sort()).toEqual(
      [
        'GET /',
        'GET /api/openapi.json',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
        'GET /api/swarms',
        'POST /api/config/validate',
      ].sort(),
    );
  });

  it('has one operationId per entry and one entry per method and path', () => {
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
    expect(new Set(TABLE).size).toBe(TABLE.length);
  });
});

describe('every operation has its handler', () => {
  it.each(OPERATIONS.map((op) => [op.operationId, entry(op)] as const))('%s (%s) binds to a handler', (id) => {
    expect(Object.prototype.hasOwnProperty.call(ROUTE_HANDLERS, id)).toBe(true);
    const bind: BindRoute | undefined = new Map(Object.entries(ROUTE_HANDLERS)).get(id);
    expect(typeof bind?.(routeContext(dir.path, fakeEngine({})))).toBe('function');
  });

  it('has no handler for an operation the table lacks', () => {
    expect(Object.keys(ROUTE_HANDLERS).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });
});

describe('bindRoutes refuses a table and handlers that disagree', () => {
  const op = (operationId: string): Operation => ({
    method: 'get',
    path: '/t',
    operationId,
    tag: 't',
    summary: 't',
    scope: 'full',
    success: { status: 200, name: 'T', schema: z.unknown() },
    errors: [],
  });
  const handler: BindRoute = () => (_req, res) => res.json({});

  // Names on Object.prototype: a plain `handlers[id]` lookup would find a "handler" for them.
  test.each(['listSwarms', 'toString', 'constructor', '__proto__', 'hasOwnProperty', ''])(
    'an operation %j without a handler throws',
    (id) => {
      expect(() => bindRoutes([op(id)], {})).toThrow(/has no handler/);
    },
  );

  it('a handler that names no operation throws (a route the table would not describe)', () => {
    expect(() => bindRoutes([op('a')], { a: handler, stray: handler })).toThrow(/without an operation in the table: stray/);
  });

  it('binds a matching pair', () => {
    expect(bindRoutes([op('a')], { a: handler }).map((r) => [r.operationId, r.bind])).toEqual([['a', handler]]);
  });
});

describe('mountRoutes', () => {
  const handler: RequestHandler = (_req, res) => res.json({});
  const route = (scope: Route['scope'], path: string): Route => ({
    method: 'get',
    path,
    operationId: 't',
    tag: 't',
    summary: 't',
    scope,
    success: { status: 200, name: 'T', schema: z.unknown() },
    errors: [],
    bind: () => handler,
  });

  test.each(['/healthz/:x', '/:any', '/api/:s'])('refuses a public route with a parameter (%s)', (path) => {
    expect(() => mountRoutes([route('public', path)], routeContext(dir.path))).toThrow(/has a parameter/);
  });

  test.each([
    ['/healthz', true],
    ['/healthz/', false],
    ['/HEALTHZ', false],
    ['/api/swarms', false],
  ])('answers only its own public path: %s → %s', (path, hit) => {
    const mounted = mountRoutes([route('public', '/healthz'), route('full', '/api/swarms')], routeContext(dir.path));
    expect(mounted.isPublicPath({ path })).toBe(hit);
  });
});

describe('a path is written once in the server source', () => {
  const files = sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

  // `'/'` (the descriptor) is also every path separator of the source: left out.
  const paths = [...new Set(OPERATIONS.map((op) => op.path))].filter((p) => p !== '/');

  it.each(paths.map((p) => [p] as const))('%s appears once, in the operation table', (path) => {
    const hits = files.filter((f) => f.text.includes(`'${path}'`));
    expect(hits.map((h) => h.file.slice(SRC.length + 1))).toEqual([expect.stringMatching(/^http\/operations\/[a-z-]+\.ts$/)]);
    const [only] = hits;
    expect(only?.text.split(`'${path}'`).length).toBe(1 + OPERATIONS.filter((op) => op.path === path).length);
  });

  it('registers no route by a literal path anywhere in src (only mountRoutes registers, from the table)', () => {
    const literal = /\.(get|post|put|patch|delete|all|head)\(\s*['"`]\//;
    expect(files.filter((f) => literal.test(f.text)).map((f) => f.file)).toEqual([]);
  });
});
