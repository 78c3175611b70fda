import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createAuthorizer, parseBearer, TOKEN_REQUIRED_BODY, UNAUTHORIZED_BODY } from '@genswarms/security';
import type { RouteScope, TokenConfig } from '@genswarms/security';
import type { AuthDeniedReporter } from '../logging/auth-denied';

/** The TCP peer only; proxies' headers are never read (docs/security.md). */
export function peerOf(req: Request): string {
  return req.socket.remoteAddress ?? '';
}

/**
 * Pipeline step 3: every request, matched route or not, before any body is read. Refusal = 401 with
 * `WWW-Authenticate: Bearer` and one of the two exact bodies, plus one (rate-limited) `auth_denied`.
 * The configured tokens are hashed once here (`createAuthorizer`); each request hashes what it presents once.
 * `scopeOf` is compiled from the operation table (`configScope`): its `config` routes, everything else full.
 */
export function authStep(tokens: TokenConfig, reportDenial: AuthDeniedReporter, scopeOf: RouteScope): RequestHandler {
  const authorize = createAuthorizer(tokens);
  return (req: Request, res: Response, next: NextFunction): void => {
    const peer = peerOf(req);
    const decision = authorize(scopeOf(req.method, req.path), parseBearer(req.headers.authorization), peer);
    if (decision === 'ok') {
      next();
      return;
    }
    reportDenial({ peer, transport: 'http', method: req.method, route: req.path, reason: decision });
    res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(401).json(decision === 'unauthorized' ? UNAUTHORIZED_BODY : TOKEN_REQUIRED_BODY);
  };
}
