/**
 * The express router and the OpenAPI document list the same routes: a route added without its
 * operation (apps/server/src/http/operations/), or an operation with no route, fails here.
 * The /ui/ dashboard's static files are deliberately outside the API (docs/rest-api.md).
 */
import { buildOpenApiDocument, toOpenApiPath } from '../src/http/openapi/build-document';
import { configScope, mountRoutes } from '../src/http/mount-routes';
import { OPERATIONS } from '../src/http/operations';
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

/** Mount points that serve files, not API operations. */
const OUTSIDE_THE_API = ['/ui'];

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
    routes: DEFAULT_ROUTES,
  });
  const documentedOps = documented();
  // the public router sits inside the app's one step layer (entered only for its own paths): walked on its own
  const health = mountRoutes(DEFAULT_ROUTES, routeContext(dir.path, fakeEngine({}))).publicRouter;
  const routed = [...walk(appStack(app)), ...walk(routerStack(health))].map((r) =>
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
    const mounts = appStack(app).filter((l) => l.route === undefined && l.slash !== true && l.handle?.stack !== undefined);
    expect(mounts.length).toBeLessThanOrEqual(OUTSIDE_THE_API.length);
  });
});

describe("the document states each operation's token scope as the auth step decides it", () => {
  test.each(OPERATIONS.filter((op) => op.scope !== 'public').map((op) => [op.method.toUpperCase(), op.path, op.scope] as const))(
    '%s %s is %s scope',
    (method, path, scope) => {
      expect(configScope(DEFAULT_ROUTES)(method, path.replace(/:[A-Za-z_]+/g, 'x1'))).toBe(scope);
    },
  );
});
