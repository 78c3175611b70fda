import { normalizeToken } from '@genswarms/security';
import { ClientError, connectSwarmSocket } from '@genswarms/client';
import type { AckOf, SocketEvent, SocketEvents, SwarmSocket } from '@genswarms/client';
import type { CliContext } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { REQUEST_TIMEOUT_MS } from '../client/api-client';
import { resolveBaseUrl } from '../client/base-url';
import type { BaseUrl } from '../client/base-url';

/** A refused or failed handshake: 401-like refusals → exit 4 with the server's sentence; anything else → `unreachable` (exit 3). */
function connectError(err: unknown, base: BaseUrl): unknown {
  if (!(err instanceof ClientError)) return err;
  if (err.code === 'unauthorized' || err.code === 'token_required') return new CliError(err.code, err.message, EXIT.unauthorized);
  const why = err.code === 'connect_failed' ? err.message : err.code;
  return new CliError('unreachable', `cannot reach ${base.url} over socket.io (${why}; ${base.source})`, EXIT.unreachable);
}

/** Connects to `/swarm` through `@genswarms/client` (auth.token only when GENSWARMS_API_TOKEN is set; no reconnection). */
async function connect(ctx: CliContext): Promise<SwarmSocket> {
  const base = resolveBaseUrl(ctx.env, ctx.cwd);
  const token = normalizeToken(ctx.env['GENSWARMS_API_TOKEN']);
  try {
    return await connectSwarmSocket({ baseUrl: base.url, token, connectTimeoutMs: REQUEST_TIMEOUT_MS, ackTimeoutMs: REQUEST_TIMEOUT_MS });
  } catch (err) {
    throw connectError(err, base);
  }
}

/** Emits with an ack (30 s); a failure ack → CliError (exit 1) with the server's code; no ack → `unreachable` (exit 3). */
export async function emitChecked<E extends SocketEvent>(
  socket: SwarmSocket,
  event: E,
  payload: SocketEvents[E]['payload'],
): Promise<AckOf<E>> {
  try {
    return await socket.request(event, payload);
  } catch (err) {
    if (!(err instanceof ClientError)) throw err;
    if (err.code === 'timeout') throw new CliError('unreachable', `no answer to ${event} within 30 s`, EXIT.unreachable);
    const code = err.code === 'invalid_response' ? 'socket_error' : err.code;
    throw new CliError(code, err.message === err.code || code === 'socket_error' ? `${event} was refused` : err.message, EXIT.failed);
  }
}

/**
 * Connects to `/swarm` and joins `swarm`. `listen` registers push handlers before the join, so nothing
 * pushed right after it is missed.
 */
export async function joinSwarm(ctx: CliContext, swarm: string, listen?: (socket: SwarmSocket) => void): Promise<SwarmSocket> {
  const socket = await connect(ctx);
  listen?.(socket);
  try {
    await emitChecked(socket, 'join', { swarm });
  } catch (err) {
    socket.close();
    throw err;
  }
  return socket;
}

/**
 * Keeps `socket` open until `signal` aborts (→ resolves, the caller exits 0) or the server drops the
 * connection (→ CliError exit 3). Always closes the socket.
 */
export function followUntilInterrupted(swarmSocket: SwarmSocket, signal: AbortSignal | undefined): Promise<void> {
  const { socket } = swarmSocket;
  return new Promise((resolve, reject) => {
    const finish = (err?: CliError): void => {
      signal?.removeEventListener('abort', onAbort);
      socket.off('disconnect', onDisconnect);
      socket.close();
      if (err === undefined) resolve();
      else reject(err);
    };
    const onAbort = (): void => finish();
    const onDisconnect = (reason: string): void =>
      finish(new CliError('disconnected', `lost the connection to the server (${reason})`, EXIT.unreachable));
    if (signal?.aborted === true) return finish();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('disconnect', onDisconnect);
  });
}
