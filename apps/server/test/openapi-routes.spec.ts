/**
 * The express router and the OpenAPI document list the same routes: a route added without its
 * operation (apps/server/src/http/openapi/operations.ts), or an operation with no route, fails here.
 * The /ui/ dashboard's static files are deliberately outside the API (docs/rest-api.md).
 */
import type { Express } from 'express';
import { routeScope } from '@genswarms/security';
import { buildOpenApiDocument, toOpenApiPath } from '../src/http/openapi/build-document';
import { OPERATIONS } from '../src/http/openapi/operations';
import { healthRouter } from '../src/http/routes/health';
import {
  createApp,
  createAuthDeniedReporter,
  createMemoryEventSink,
  createServerLogger,
  DEFAULT_ROUTE_MODULES,
  IR_GATE_VALIDATOR,
} from '../src/index';
import { fakeEngine } from './support/fake-engine';
import { captureStream, tempDir, testConfig } from './support/harness';

/** Mount points that serve files, not API operations. */
const OUTSIDE_THE_API = ['/ui'];

interface Layer {
  readonly route?: { readonly path: string | string[]; readonly methods: Record<string, boolean> };
  readonly handle?: { readonly stack?: readonly Layer[] };
  readonly matchers?: unknown[];
  readonly slash?: boolean;
  readonly name?: string;
}

/** "METHOD /path" of every route registered on `stack` and the routers mounted at `/`. */
function walk(stack: readonly Layer[]): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route !== undefined) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths)
        for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.push(`${method.toUpperCase()} ${path}`);
    } else if (layer.slash === true && layer.handle?.stack !== undefined) {
      out.push(...walk(layer.handle.stack));
    }
  }
  return out;
}

function routerOf(app: Express): readonly Layer[] {
  return (app as unknown as { router: { stack: Layer[] } }).router.stack;
}

function documented(): string[] {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
}

describe('the express router and docs/openapi.json', () => {
  const dir = tempDir('gs-openapi-walk-');
  afterAll(() => dir.cleanup());
  const events = createMemoryEventSink();
  const logger = createServerLogger(captureStream().stream, 'error');
  const app = createApp(testConfig(dir.path), {
    engine: fakeEngine({}),
    events,
    logger,
    reportDenial: createAuthDeniedReporter({ events, logger }),
    validator: IR_GATE_VALIDATOR,
    routes: DEFAULT_ROUTE_MODULES,
  });
  const documentedOps = documented();
  // the health router sits inside the app's one step layer (entered only for its own paths): walked on its own
  const health = healthRouter({ readiness: () => Promise.resolve(true), closing: () => false }) as unknown as { stack: Layer[] };
  const routed = [...walk(routerOf(app)), ...walk(health.stack)].map((r) =>
    r.replace(/ (\S+)$/, (_m, p: string) => ` ${toOpenApiPath(p)}`),
  );

  it('finds the routes (the walk is not empty)', () => {
    expect(routed).toEqual(expect.arrayContaining(['GET /', 'POST /api/swarms', 'GET /api/openapi.json']));
  });

  it('documents every routed operation', () => {
    expect(routed.filter((r) => !documentedOps.includes(r))).toEqual([]);
  });

  it('routes every documented operation', () => {
    expect(documentedOps.filter((r) => !routed.includes(r))).toEqual([]);
  });

  it('leaves only the static mounts outside the API', () => {
    const mounts = routerOf(app).filter((l) => l.route === undefined && l.slash !== true && l.handle?.stack !== undefined);
    expect(mounts.length).toBeLessThanOrEqual(OUTSIDE_THE_API.length);
  });
});

describe("the document states each operation's token scope as the auth step decides it", () => {
  test.each(OPERATIONS.filter((op) => op.scope !== 'public').map((op) => [op.method.toUpperCase(), op.path, op.scope] as const))(
    '%s %s is %s scope',
    (method, path, scope) => {
      expect(routeScope(method, path.replace(/:[A-Za-z_]+/g, 'x1'))).toBe(scope);
    },
  );
});
