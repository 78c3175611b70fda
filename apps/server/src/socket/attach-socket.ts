import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { CorsPolicy, TokenConfig } from '@genswarms/security';
import type { SwarmService } from '@genswarms/engine';
import type { AuthDeniedReporter } from '../logging/auth-denied';
import { createHandshakeGuard } from './handshake-auth';
import type { ClientToServerEvents, InterServerEvents, JoinedEvent, ServerToClientEvents, SocketData } from './socket-events';
import type { JoinedEventHandler } from './swarm-namespace';
import { registerSwarmNamespace } from './swarm-namespace';
import { bridgePushes } from './push-bridge';
import { createSwarmHandlers } from './swarm-handlers';
import { boundSlowConsumer, SOCKET_MAX_BUFFERED_BYTES } from './slow-consumer';
import type { SlowConsumerDrop } from './slow-consumer';

export type SwarmIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** socket.io message cap, like the HTTP body limit: 1 MiB. */
export const SOCKET_MAX_MESSAGE_BYTES = 1048576;

/**
 * Attaches socket.io (path `/socket.io`, websocket only) for upgrades ONLY: engine.io's HTTP request
 * listener is removed again, so plain HTTP requests to /socket.io go through the express pipeline
 * (auth, then 404) instead of being answered unauthenticated.
 */
export function attachSocketServer(
  httpServer: HttpServer,
  opts: {
    tokens: TokenConfig;
    cors: CorsPolicy;
    reportDenial: AuthDeniedReporter;
    engine?: SwarmService;
    handlers?: Partial<Record<JoinedEvent, JoinedEventHandler>>;
    onError: (err: unknown) => void;
    /** Bound on what one connection may hold unsent (default SOCKET_MAX_BUFFERED_BYTES, docs/websocket.md). */
    socketMaxBufferedBytes?: number;
    /** Told of each connection closed for holding more than that (`slow_consumer`); `swarm` = the one it had joined. */
    onSlowConsumer?: (drop: SlowConsumerDrop & { socket: string; swarm: string | null }) => void;
  },
): SwarmIo {
  const requestListeners = httpServer.listeners('request');
  const io: SwarmIo = new Server(httpServer, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: SOCKET_MAX_MESSAGE_BYTES,
  });
  httpServer.removeAllListeners('request');
  for (const listener of requestListeners) httpServer.on('request', listener as (...args: unknown[]) => void);

  const guard = createHandshakeGuard(opts);
  // Every namespace, `/` included and any created later, runs the guard before anything is delivered.
  io.on('new_namespace', (nsp) => nsp.use(guard));
  io.of('/').use(guard);
  const swarm = io.of('/swarm');
  const bounded = new WeakSet<object>();
  const limit = opts.socketMaxBufferedBytes ?? SOCKET_MAX_BUFFERED_BYTES;
  // Every connection that reaches /swarm (the only namespace that pushes) gets the slow-consumer bound once.
  swarm.on('connection', (socket) => {
    if (bounded.has(socket.conn)) return;
    bounded.add(socket.conn);
    boundSlowConsumer(socket.conn, limit, (drop) =>
      opts.onSlowConsumer?.({ ...drop, socket: socket.id, swarm: socket.data.swarm ?? null }),
    );
  });
  const handlers = { ...(opts.engine === undefined ? {} : createSwarmHandlers(opts.engine)), ...opts.handlers };
  registerSwarmNamespace(swarm, { engine: opts.engine, handlers, onError: opts.onError });
  return io;
}

/** Feeds engine pushes to `/swarm` rooms; returns the function that stops it (no-op without an engine). */
export function bridgeEnginePushes(io: SwarmIo, engine: SwarmService | undefined, onError: (err: unknown) => void): () => void {
  return engine === undefined ? () => undefined : bridgePushes(io.of('/swarm'), engine, onError);
}
