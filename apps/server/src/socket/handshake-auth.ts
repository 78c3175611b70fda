import { authorize, isOriginAllowed, parseBearer, TOKEN_REQUIRED_BODY, UNAUTHORIZED_BODY } from '@genswarms/security';
import type { CorsPolicy, TokenConfig } from '@genswarms/security';
import type { Socket } from 'socket.io';
import type { AuthDeniedReporter } from '../logging/auth-denied';

/** A socket.io middleware refusal: `connect_error` with this message and `data`. */
export type HandshakeRefusal = Error & { data: { error: string; message: string } };

type Present = { present: true; value: unknown } | { present: false };

function firstPresent(socket: Socket): Present {
  const auth: unknown = socket.handshake.auth;
  if (auth !== null && typeof auth === 'object' && (auth as Record<string, unknown>)['token'] !== undefined) {
    return { present: true, value: (auth as Record<string, unknown>)['token'] };
  }
  const query = socket.handshake.query['token'];
  if (query !== undefined) return { present: true, value: query };
  const bearer = parseBearer(socket.handshake.headers.authorization);
  return bearer === undefined ? { present: false } : { present: true, value: bearer };
}

/**
 * Token sources, first present wins: `auth.token`, then `?token=`, then `Authorization: Bearer`. A present
 * but wrong (or non-string) token does not fall through to the next source (docs/security.md).
 */
export function handshakeToken(socket: Socket): string | undefined {
  const found = firstPresent(socket);
  if (!found.present) return undefined;
  return typeof found.value === 'string' ? found.value : '';
}

function refusal(message: string, data: { error: string; message: string }): HandshakeRefusal {
  return Object.assign(new Error(message), { data: { ...data } });
}

/** The TCP peer of the underlying connection; forwarded-for headers are never read. */
export function socketPeer(socket: Socket): string {
  return socket.conn.remoteAddress ?? '';
}

/**
 * `io.use`/`nsp.use` middleware for EVERY namespace: full-scope auth (the config token never opens a
 * socket), then the CORS origin policy for a present Origin. Refusals emit one `auth_denied`.
 */
export function createHandshakeGuard(opts: { tokens: TokenConfig; cors: CorsPolicy; reportDenial: AuthDeniedReporter }) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    const peer = socketPeer(socket);
    const report = (reason: 'unauthorized' | 'token_required' | 'origin_not_allowed'): void =>
      opts.reportDenial({ peer, transport: 'socket', method: 'CONNECT', route: socket.nsp.name, reason });
    const decision = authorize('full', handshakeToken(socket), peer, { fullToken: opts.tokens.fullToken });
    if (decision !== 'ok') {
      report(decision);
      next(refusal(decision, decision === 'unauthorized' ? UNAUTHORIZED_BODY : TOKEN_REQUIRED_BODY));
      return;
    }
    const origin = socket.handshake.headers.origin;
    if (origin !== undefined && !isOriginAllowed(opts.cors, origin)) {
      report('origin_not_allowed');
      next(refusal('origin_not_allowed', { error: 'origin_not_allowed', message: 'Connections from this Origin are not allowed' }));
      return;
    }
    next();
  };
}
