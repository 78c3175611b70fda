import { EgressError } from '../errors/egress-error';
import { assertSafeTarget } from '../plan/host-syntax';
import type { EgressTarget } from '../plan/target';

/** Linux `sun_path` is 108 bytes including the terminating NUL. */
export const UNIX_SOCKET_PATH_MAX_BYTES = 107;
/** Absolute path made of characters that are never socat address syntax (no `,` `:` `!` quotes or spaces). */
const SAFE_SOCKET_PATH_RE = /^\/[A-Za-z0-9._/@+~-]+$/;

/** Throws `egress_unavailable` unless the socket path can be written into a socat address verbatim. */
export function assertSafeSocketPath(sockPath: string): void {
  if (!SAFE_SOCKET_PATH_RE.test(sockPath) || sockPath.includes('//') || sockPath.split('/').includes('..')) {
    throw new EgressError(
      'egress_unavailable',
      'egress socket path must be absolute and use only [A-Za-z0-9._/@+~-] (socat address syntax is never escaped)',
    );
  }
  if (Buffer.byteLength(sockPath) > UNIX_SOCKET_PATH_MAX_BYTES) {
    throw new EgressError('egress_unavailable', `egress socket path exceeds ${UNIX_SOCKET_PATH_MAX_BYTES} bytes (unix socket limit)`);
  }
}

/**
 * The uid:gid allowed to connect (a root server's agent identity): socat chowns the 0600 socket to it
 * right after bind (until then only root can connect, so the window grants nobody anything).
 */
export interface SocketClient {
  readonly uid: number;
  readonly gid: number;
}

function socketId(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2147483647)
    throw new EgressError('egress_unavailable', 'the socket client uid/gid must be an integer from 1 to 2147483647');
  return String(n);
}

/**
 * Pure argv (without the socat binary) of the host-side forwarder, docs/security.md. Every component is
 * validated first, so no input can add socat options or a second address. socat >= 1.7.4 checks the
 * certificate chain (`verify=1`), the certificate's names against the host, and sends SNI by default.
 */
export function buildHostSocatArgs(sockPath: string, target: EgressTarget, client?: SocketClient): readonly string[] {
  assertSafeSocketPath(sockPath);
  assertSafeTarget(target.host, target.port);
  const owner = client === undefined ? '' : `,user=${socketId(client.uid)},group=${socketId(client.gid)}`;
  const listen = `UNIX-LISTEN:${sockPath},fork,mode=0600${owner},unlink-early`;
  const connect = target.tls ? `OPENSSL:${target.host}:${target.port},verify=1` : `TCP:${target.host}:${target.port}`;
  return [listen, connect];
}
