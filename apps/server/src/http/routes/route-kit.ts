import type { Request, RequestHandler, Response } from 'express';
import { EngineError, invalidQuery, parseLimitParam } from '@genswarms/engine';
import type { SwarmService } from '@genswarms/engine';
import { isName } from '@genswarms/ir-gate';
import type { OperationId } from '../operations';
import type { BindRoute, RouteContext } from '../route';
import { sendError } from '../send-error';

/** What a handler returns: a status (default 200) and a JSON body, or a raw text body with its type. */
export type Reply =
  { readonly status?: number; readonly body: unknown } | { readonly status?: number; readonly text: string; readonly contentType: string };

/** Sends an EngineError as its error body (docs/rest-api.md#errors) with its own status; false for anything else. */
export function sendEngineError(res: Response, err: unknown): boolean {
  if (!(err instanceof EngineError)) return false;
  sendError(res, err.status, err.code, err.message, { ...err.details });
  return true;
}

/**
 * Wraps an async route: the reply is sent as JSON (or raw text); an EngineError becomes its error body;
 * anything else goes to the 500 handler (logged with a request_id, never shown to the caller).
 */
export function handle(fn: (req: Request) => Promise<Reply>): RequestHandler {
  return async (req, res, next) => {
    try {
      const reply = await fn(req);
      res.status(reply.status ?? 200);
      if ('text' in reply) res.type(reply.contentType).send(reply.text);
      else res.json(reply.body);
    } catch (err) {
      if (!sendEngineError(res, err)) next(err);
    }
  };
}

/** Handlers of some operations, keyed by `operationId`: a key that names no operation of the table does not compile. */
export type RouteHandlers = Partial<Readonly<Record<OperationId, BindRoute>>>;

/** The handlers of exactly the operations `K`. */
export type HandlersOf<K extends OperationId> = { readonly [P in K]: BindRoute };

/** A route that needs the engine: a server without one leaves it unrouted (404). */
export function engineRoute(fn: (req: Request, engine: SwarmService) => Promise<Reply>): BindRoute {
  return (ctx) => {
    const engine = ctx.engine;
    return engine === undefined ? undefined : handle((req) => fn(req, engine));
  };
}

/** A route every server has, engine or not. */
export function anyRoute(fn: (req: Request, ctx: RouteContext) => Promise<Reply>): BindRoute {
  return (ctx) => handle((req) => fn(req, ctx));
}

/** A path parameter as a string (`''` when absent or a wildcard list). */
export function pathParam(req: Request, param: string): string {
  const value: unknown = req.params[param];
  return typeof value === 'string' ? value : '';
}

const NOT_FOUND = {
  swarm: ['swarm_not_found', 'No such swarm.'],
  agent: ['agent_not_found', 'No such agent.'],
  object: ['object_not_found', 'No such object.'],
} as const;

/** A path segment naming a swarm/agent/object; off-grammar answers that resource's 404 (it cannot exist). */
export function nameParam(req: Request, param: string, kind: keyof typeof NOT_FOUND): string {
  const value: unknown = req.params[param];
  if (isName(value)) return value;
  const [code, message] = NOT_FOUND[kind];
  throw new EngineError(code, message, kind === 'swarm' ? {} : { [kind]: typeof value === 'string' ? value.slice(0, 64) : '' });
}

/** A single-valued query string parameter, or undefined when absent. Repeats are refused. */
export function queryParam(req: Request, param: string): string | undefined {
  const value: unknown = (req.query as Record<string, unknown>)[param];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidQuery(param, 'expected a single value');
  return value;
}

/** `?purge=true` style flags: absent or `false` → false, `true` → true, anything else → invalid_query. */
export function flagQuery(req: Request, param: string): boolean {
  const value = queryParam(req, param);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw invalidQuery(param, 'expected true or false');
}

/** `?limit` in 1..max (digits only), default `fallback`. */
export function limitQuery(req: Request, max: number, fallback: number, param = 'limit'): number {
  return parseLimitParam(queryParam(req, param), max, fallback, param);
}
