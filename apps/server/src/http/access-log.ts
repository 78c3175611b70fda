import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { redactUrl } from '@genswarms/security';
import type { ServerLogger } from '../logging/logger';

/** One JSON log line per request: method, URL with secret query values redacted, status, peer, duration. Never headers. */
export function accessLog(logger: ServerLogger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info('http_request', {
        method: req.method,
        url: redactUrl(req.originalUrl),
        status: res.statusCode,
        peer: req.socket.remoteAddress ?? '',
        duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      });
    });
    next();
  };
}
