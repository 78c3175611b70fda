import type { Express, Router } from 'express';
import { DISPATCHED_ROUTES } from '../../src/http/route-dispatch';

/** The parts of an express 5 router layer the walk reads (express exports no type for them). */
export interface Layer {
  readonly route?: { readonly path: string | string[]; readonly methods: Record<string, boolean> };
  readonly handle?: { readonly stack?: readonly Layer[]; readonly [DISPATCHED_ROUTES]?: readonly string[] };
  readonly slash?: boolean;
}

/** "METHOD /path" of every route registered on `stack` and the routers mounted at `/`. */
export function walk(stack: readonly Layer[]): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route !== undefined) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths)
        for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.push(`${method.toUpperCase()} ${path}`);
    } else if (layer.slash === true && layer.handle?.stack !== undefined) {
      out.push(...walk(layer.handle.stack));
    } else if (layer.slash === true && layer.handle?.[DISPATCHED_ROUTES] !== undefined) {
      out.push(...layer.handle[DISPATCHED_ROUTES]); // the table's one dispatch layer (routeDispatcher)
    }
  }
  return out;
}

/** The layers of an app's own router. */
export function appStack(app: Express): readonly Layer[] {
  return (app as unknown as { router: { stack: Layer[] } }).router.stack;
}

/** The layers of a router. */
export function routerStack(router: Router): readonly Layer[] {
  return (router as unknown as { stack: Layer[] }).stack;
}
