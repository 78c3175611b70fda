import { normalizeToken } from '@genswarms/security';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { CliContext } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { REQUEST_TIMEOUT_MS } from '../client/api-client';
import { resolveBaseUrl } from '../client/base-url';
import type { BaseUrl } from '../client/base-url';

/** socket.io namespace of the server (docs/websocket.md). */
export const SWARM_NAMESPACE = '/swarm';

interface AckBody {
  ok?: unknown;
  error?: unknown;
  message?: unknown;
  [key: string]: unknown;
}

function connectError(err: Error & { data?: { message?: unknown } }, base: BaseUrl): CliError {
  if (err.message === 'unauthorized' || err.message === 'token_required') {
    const message = typeof err.data?.message === 'string' ? err.data.message : 'the server refused the socket';
    return new CliError(err.message, message, EXIT.unauthorized);
  }
  return new CliError('unreachable', `cannot reach ${base.url} over socket.io (${err.message}; ${base.source})`, EXIT.unreachable);
}

function connect(ctx: CliContext): Promise<Socket> {
  const base = resolveBaseUrl(ctx.env, ctx.cwd);
  const url = new URL(base.url);
  const token = normalizeToken(ctx.env['GENSWARMS_API_TOKEN']);
  const socket = io(`${url.origin}${SWARM_NAMESPACE}`, {
    path: `${url.pathname.replace(/\/$/, '')}/socket.io`,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: REQUEST_TIMEOUT_MS,
    ...(token === undefined ? {} : { auth: { token } }),
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err: Error) => {
      socket.close();
      reject(connectError(err, base));
    });
  });
}

/** Emits with an ack (30 s); an `ok:false` ack → CliError (exit 1) with the server's code. */
export async function emitChecked(socket: Socket, event: string, payload: unknown): Promise<AckBody> {
  let ack: AckBody;
  try {
    ack = (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(event, payload)) as AckBody;
  } catch {
    throw new CliError('unreachable', `no answer to ${event} within 30 s`, EXIT.unreachable);
  }
  if (ack?.ok !== true) {
    const code = typeof ack?.error === 'string' ? ack.error : 'socket_error';
    throw new CliError(code, typeof ack?.message === 'string' ? ack.message : `${event} was refused`, EXIT.failed);
  }
  return ack;
}

/**
 * Connects to `/swarm` (auth.token only when GENSWARMS_API_TOKEN is set) and joins `swarm`.
 * `listen` registers push handlers before the join, so nothing pushed right after it is missed.
 */
export async function joinSwarm(ctx: CliContext, swarm: string, listen?: (socket: Socket) => void): Promise<Socket> {
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
export function followUntilInterrupted(socket: Socket, signal: AbortSignal | undefined): Promise<void> {
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
