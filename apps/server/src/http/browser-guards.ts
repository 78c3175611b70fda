import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isHostHeaderAllowed, isOriginAllowed, normalizeToken } from '@genswarms/security';
import type { CorsPolicy, TokenConfig } from '@genswarms/security';
import type { AuthDeniedReporter } from '../logging/auth-denied';
import { peerOf } from './auth';
import { sendError } from './send-error';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Pipeline step 4 (docs/security.md): without a full token, the Host must name this server (DNS-rebinding
 * defence); an unsafe method from a disallowed browser Origin is refused (CSRF defence).
 */
export function browserGuards(opts: {
  tokens: TokenConfig;
  cors: CorsPolicy;
  bindAddress: string;
  reportDenial: AuthDeniedReporter;
}): RequestHandler {
  const loopbackMode = normalizeToken(opts.tokens.fullToken) === undefined;
  return (req: Request, res: Response, next: NextFunction): void => {
    const deny = (reason: 'host_not_allowed' | 'origin_not_allowed', message: string): void => {
      opts.reportDenial({ peer: peerOf(req), transport: 'http', method: req.method, route: req.path, reason });
      sendError(res, 403, reason, message);
    };
    if (loopbackMode && !isHostHeaderAllowed(req.headers.host, opts.bindAddress)) {
      deny('host_not_allowed', 'The Host header does not name this server');
      return;
    }
    const origin = req.headers.origin;
    if (UNSAFE_METHODS.has(req.method) && origin !== undefined && !isOriginAllowed(opts.cors, origin)) {
      deny('origin_not_allowed', 'Requests from this Origin are not allowed');
      return;
    }
    next();
  };
}
