import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { corsHeadersFor, preflightHeaders } from '@genswarms/security';
import type { CorsPolicy } from '@genswarms/security';

function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/**
 * Pipeline step 2 (docs/security.md): a preflight is answered here with 204 (never reaching auth, never 401);
 * other requests get their CORS headers now, so a later 401 carries them too.
 */
export function corsStep(policy: CorsPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isPreflight(req)) {
      const headers = preflightHeaders(policy, {
        origin: req.headers.origin,
        method: req.headers['access-control-request-method'],
        headers: req.headers['access-control-request-headers'],
      });
      res.set(headers).status(204).end();
      return;
    }
    // no Origin (every non-browser client): corsHeadersFor answers no headers, so there is nothing to set
    const origin = req.headers.origin;
    if (origin !== undefined) for (const [name, value] of Object.entries(corsHeadersFor(policy, origin))) res.setHeader(name, value);
    next();
  };
}
