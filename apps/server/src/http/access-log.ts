import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ServerLogger } from '../logging/logger';
import type { ServerMetrics } from '../metrics/server-metrics';
import { ROUTE_TEMPLATE_LOCAL } from './route-dispatch';
import { UI_PATH } from './ui-assets';

/** Route label of a request no route matched (401 before routing, 404): never the raw path, whose values are unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Route label of the dashboard's static files (served by a mount, not a route). */
export const UI_ROUTE = `${UI_PATH}/*`;

/** The matched route's template (`/api/swarms/:s`), `/ui/*` for the dashboard's files, or `unmatched`. */
export function routeTemplateOf(req: Request, res: Response): string {
  const template: unknown = res.locals[ROUTE_TEMPLATE_LOCAL];
  if (typeof template === 'string') return template;
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path; // the public router's (health) routes
  if (typeof path === 'string') return path;
  // originalUrl: a mount (the /ui static files) rewrites req.url while it handles the request
  const raw = req.originalUrl;
  return raw === UI_PATH || raw.startsWith(`${UI_PATH}/`) || raw.startsWith(`${UI_PATH}?`) ? UI_ROUTE : UNMATCHED_ROUTE;
}

/**
 * Times every request into `genswarms_http_request_duration_seconds` and, at level `debug`, logs one
 * `http_request` line: request id (also sent as `X-Request-Id`), method, route template, status,
 * duration and peer. Never the URL, its query or any header. The record is built only when debug is on.
 */
export function accessLog(logger: ServerLogger, metrics?: ServerMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplateOf(req, res);
      metrics?.observeHttp(req.method, route, res.statusCode, seconds);
      if (!logger.isLevelEnabled('debug')) return;
      logger.debug('http_request', {
        request_id: requestId,
        method: req.method,
        route,
        status: res.statusCode,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
        peer: req.socket.remoteAddress ?? '',
      });
    });
    next();
  };
}
