import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { ClientError, errorFromBody } from './client-error';
import type { SocketEvents, SocketPushes } from './generated/api-types';

type ServerToClient = { [P in keyof SocketPushes]: (payload: SocketPushes[P]) => void };
type ClientToServer = {
  [E in keyof SocketEvents]: (payload: SocketEvents[E]['payload'], ack: (answer: SocketEvents[E]['ack']) => void) => void;
};

/** The socket.io socket of the `/swarm` namespace, typed from the OpenAPI document's x-socketio section. */
export type TypedSwarmSocket = Socket<ServerToClient, ClientToServer>;
export type SocketEvent = keyof SocketEvents;
export type SocketPush = keyof SocketPushes;
/** The success ack of an event (a failure ack rejects with a ClientError). */
export type AckOf<E extends SocketEvent> = Extract<SocketEvents[E]['ack'], { ok: true }>;

export interface SwarmSocketOptions {
  /** Server URL, e.g. `http://127.0.0.1:4000` (the namespace is added). */
  readonly baseUrl: string;
  /** GENSWARMS_API_TOKEN (full scope; the config token never opens a socket). */
  readonly token?: string;
  /** How long `connectSwarmSocket` waits for the handshake (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** How long `request` waits for an ack before rejecting with `timeout` (default: no limit). */
  readonly ackTimeoutMs?: number;
}

/** Default handshake wait, in milliseconds. */
export const SOCKET_CONNECT_TIMEOUT_MS = 10_000;

/** A connected `/swarm` socket: `request` sends an event and resolves to its success ack. */
export class SwarmSocket {
  constructor(
    readonly socket: TypedSwarmSocket,
    private readonly ackTimeoutMs?: number,
  ) {}

  /** Sends `event` and resolves to its success ack; a failure ack rejects with a ClientError carrying its code. */
  async request<E extends SocketEvent>(event: E, payload: SocketEvents[E]['payload']): Promise<AckOf<E>> {
    // socket.io's typed emitWithAck cannot see through the mapped event map; the answer is typed below.
    const target = this.ackTimeoutMs === undefined ? this.socket : this.socket.timeout(this.ackTimeoutMs);
    const emit = target.emitWithAck.bind(target) as unknown as (e: string, p: unknown) => Promise<unknown>;
    let answer: { ok?: unknown };
    try {
      answer = (await emit(event, payload ?? {})) as { ok?: unknown };
    } catch (err) {
      // socket.io rejects only when the ack timeout passed.
      throw new ClientError('timeout', `no answer to ${event} within ${this.ackTimeoutMs ?? 0} ms`, { cause: err });
    }
    if (answer?.ok === true) return answer as AckOf<E>;
    throw errorFromBody(0, answer);
  }

  /** Listens to one push; returns the function that stops listening. */
  on<P extends SocketPush>(push: P, listener: (payload: SocketPushes[P]) => void): () => void {
    const socket = this.socket as unknown as {
      on(e: string, l: (p: unknown) => void): void;
      off(e: string, l: (p: unknown) => void): void;
    };
    const wrapped = (payload: unknown): void => listener(payload as SocketPushes[P]);
    socket.on(push, wrapped);
    return () => socket.off(push, wrapped);
  }

  close(): void {
    this.socket.close();
  }
}

/** socket.io's URL and path for a base URL, which may carry a path prefix (`http://h/prefix` → `/prefix/socket.io`). */
function socketTarget(baseUrl: string): { url: string; path: string } {
  const url = new URL(baseUrl);
  return { url: `${url.origin}/swarm`, path: `${url.pathname.replace(/\/+$/, '')}/socket.io` };
}

/**
 * Connects to the `/swarm` namespace (websocket transport, no reconnection) and resolves once the
 * handshake is accepted; a refusal rejects with its code (`unauthorized`, `token_required`,
 * `origin_not_allowed`) or `connect_failed` / `timeout`.
 */
export function connectSwarmSocket(opts: SwarmSocketOptions): Promise<SwarmSocket> {
  const target = socketTarget(opts.baseUrl);
  const socket: TypedSwarmSocket = io(target.url, {
    path: target.path,
    transports: ['websocket'],
    auth: opts.token === undefined ? {} : { token: opts.token },
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new ClientError('timeout', 'socket.io handshake timed out'));
    }, opts.connectTimeoutMs ?? SOCKET_CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(new SwarmSocket(socket, opts.ackTimeoutMs));
    });
    socket.once('connect_error', (err: Error & { data?: unknown }) => {
      clearTimeout(timer);
      socket.close();
      reject(err.data !== undefined ? errorFromBody(0, err.data) : new ClientError('connect_failed', err.message, { cause: err }));
    });
  });
}
