import { Router, type RequestHandler } from 'express';
import { compileRouteScope } from '@genswarms/security';
import type { RouteScope } from '@genswarms/security';
import type { RouteContext, Route } from './route';
import { routeDispatcher, type DispatchEntry } from './route-dispatch';

/** The routers of an app's routes: `public` ones are entered before the auth step, the rest after it. */
export interface MountedRoutes {
  readonly publicRouter: Router;
  /** One layer answering every non-public route (routeDispatcher). */
  readonly router: RequestHandler;
  /** Whether `publicRouter` can answer this path (exact, case-sensitive, as the router matches). */
  isPublicPath(req: { readonly path: string }): boolean;
}

/**
 * Registers every route of `routes` whose handler binds in `ctx`, and nothing else: no route module holds
 * the router. A `public` route must be a literal path (no `:param`), so the step that lets it past the
 * token check is an exact set lookup.
 */
export function mountRoutes(routes: readonly Route[], ctx: RouteContext): MountedRoutes {
  // Strict, case-sensitive paths: what configScope() calls a config route is exactly what is routed there.
  const publicRouter = Router({ strict: true, caseSensitive: true });
  const entries: DispatchEntry[] = [];
  const publicPaths = new Set<string>();
  for (const route of routes) {
    if (route.scope === 'public' && route.path.includes(':')) throw new Error(`public route ${route.path} has a parameter`);
    const handler = route.bind(ctx);
    if (handler === undefined) continue;
    if (route.scope === 'public') publicPaths.add(route.path);
    if (route.scope === 'public') publicRouter[route.method](route.path, handler);
    else entries.push({ method: route.method, path: route.path, handler });
  }
  return { publicRouter, router: routeDispatcher(entries), isPublicPath: (req) => publicPaths.has(req.path) };
}

/** `METHOD /path` of each route, as `GET /` lists them. */
export function endpointsOf(routes: readonly Route[]): string[] {
  return routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
}

/** The auth step's scope of a request: `config` for exactly the table's `config` routes, full for anything else. */
export function configScope(routes: readonly Route[]): RouteScope {
  return compileRouteScope(routes.filter((r) => r.scope === 'config').map((r) => ({ method: r.method.toUpperCase(), path: r.path })));
}
