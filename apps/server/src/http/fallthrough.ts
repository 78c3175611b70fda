import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { redactUrl } from '@genswarms/security';
import type { ServerLogger } from '../logging/logger';
import { sendError } from './send-error';

/** Step 6: no route for method + path → 404 `not_found` (no 405s, no automatic OPTIONS answers). */
export function notFound(_req: Request, res: Response): void {
  sendError(res, 404, 'not_found', 'No such route');
}

/** A non-preflight OPTIONS goes through auth and then 404 (express would otherwise answer it with `Allow`). */
export function refuseOptions(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'OPTIONS') notFound(req, res);
  else next();
}

/** Step 7: uncaught error → 500 `internal_error` with a `request_id`; details go to the log only. */
export function errorHandler(logger: ServerLogger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (err instanceof URIError) {
      // A path parameter that is not valid percent-encoding cannot name any resource.
      notFound(req, res);
      return;
    }
    // the access log's id (X-Request-Id, the debug request line) when it ran; a fresh one for an embedder's app
    const locals: unknown = res.locals['requestId'];
    const requestId = typeof locals === 'string' ? locals : randomUUID();
    logger.error('internal_error', {
      request_id: requestId,
      method: req.method,
      route: redactUrl(req.originalUrl),
      error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
    });
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, 500, 'internal_error', 'Internal error', { request_id: requestId });
  };
}
