import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** One registered route as the dispatcher matches it: a method, a template's segments, its handler. */
export interface DispatchEntry {
  readonly method: string;
  /** Express form: `/api/swarms/:s/agents/:a` (a parameter is a whole segment). */
  readonly path: string;
  readonly handler: RequestHandler;
}

interface Compiled {
  readonly template: string;
  /** Literal segments as they are; a parameter as `{ name }`. */
  readonly segments: ReadonlyArray<string | { readonly name: string }>;
  readonly handler: RequestHandler;
}

interface MethodTable {
  readonly exact: Map<string, Compiled>;
  readonly templated: Compiled[];
}

/** The `METHOD /path` list a dispatcher answers, on the dispatcher itself (what a walk of the app's layers reads). */
export const DISPATCHED_ROUTES: unique symbol = Symbol('genswarms.dispatchedRoutes');

/** `res.locals` key holding the matched route's template (the access log's route label). */
export const ROUTE_TEMPLATE_LOCAL = 'routeTemplate';

function compile(path: string, handler: RequestHandler): Compiled {
  const segments = path
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith(':') ? { name: s.slice(1) } : s));
  return { template: path, segments, handler };
}

/**
 * The request's parameters if `route` matches `parts` (the path split on `/`, leading '' dropped), else undefined.
 * A parameter is one non-empty segment, percent-decoded (a malformed escape throws URIError: the error
 * handler answers it 404, as express's router did).
 */
function matchParams(route: Compiled, parts: readonly string[]): Record<string, string> | undefined {
  if (parts.length !== route.segments.length) return undefined;
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < parts.length; i++) {
    const want = route.segments[i] as Compiled['segments'][number];
    const got = parts[i] as string;
    if (typeof want === 'string') {
      if (got !== want) return undefined;
    } else {
      if (got === '') return undefined;
      params[want.name] = decodeURIComponent(got);
    }
  }
  return params;
}

/**
 * One express layer that answers every route of the table: a map lookup for a literal path, a segment match
 * for a template (strict and case-sensitive, as the table's paths are written; `HEAD` is answered by the
 * `GET` route, without a body). Express's router walked its layers with a regular expression each, on every
 * request; a request no route takes goes on to the 404.
 */
export function routeDispatcher(entries: readonly DispatchEntry[]): RequestHandler & { readonly [DISPATCHED_ROUTES]: readonly string[] } {
  const tables = new Map<string, MethodTable>();
  for (const entry of entries) {
    const method = entry.method.toUpperCase();
    let table = tables.get(method);
    if (table === undefined) tables.set(method, (table = { exact: new Map(), templated: [] }));
    const compiled = compile(entry.path, entry.handler);
    if (entry.path.includes('/:')) table.templated.push(compiled);
    else if (table.exact.has(entry.path)) throw new Error(`route ${method} ${entry.path} is registered twice`);
    else table.exact.set(entry.path, compiled);
  }
  const dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const table = tables.get(req.method === 'HEAD' ? 'GET' : req.method);
    if (table === undefined) return next();
    const path = req.path;
    let route = table.exact.get(path);
    let params: Record<string, string> | undefined = route === undefined ? undefined : {};
    if (route === undefined) {
      const parts = path.split('/').slice(1);
      for (const candidate of table.templated) {
        try {
          params = matchParams(candidate, parts);
        } catch (err) {
          return next(err);
        }
        if (params !== undefined) {
          route = candidate;
          break;
        }
      }
    }
    if (route === undefined || params === undefined) return next();
    req.params = params;
    res.locals[ROUTE_TEMPLATE_LOCAL] = route.template;
    try {
      const out: unknown = route.handler(req, res, next);
      if (out instanceof Promise) out.catch((e: unknown) => next(e));
    } catch (err) {
      next(err);
    }
  };
  return Object.assign(dispatch, { [DISPATCHED_ROUTES]: entries.map((e) => `${e.method.toUpperCase()} ${e.path}`) });
}
