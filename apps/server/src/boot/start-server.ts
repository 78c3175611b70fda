import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { isLoopback, normalizeToken } from '@genswarms/security';
import type { ServerConfig } from '../config/server-config';
import type { SwarmService } from '@genswarms/engine';
import type { EventSink } from '../events/event-sink';
import { createMemoryEventSink } from '../events/event-sink';
import { createApp } from '../http/create-app';
import type { Route } from '../http/route';
import { DEFAULT_ROUTES } from '../http/routes';
import type { ConfigValidator } from '../http/routes/config-validator';
import { IR_GATE_VALIDATOR } from '../http/routes/config-validator';
import { createAuthDeniedReporter } from '../logging/auth-denied';
import { engineReadiness } from '../http/routes/health';
import type { ReadinessProbe } from '../http/routes/health';
import { countingEventSink, createServerMetrics } from '../metrics/server-metrics';
import type { ServerLogger } from '../logging/logger';
import { createServerLogger } from '../logging/logger';
import { attachSocketServer, bridgeEnginePushes } from '../socket/attach-socket';
import type { SwarmIo } from '../socket/attach-socket';
import type { JoinedEvent } from '../socket/socket-events';
import type { JoinedEventHandler } from '../socket/swarm-namespace';

/** Optional collaborators; everything has a default, so `startServer(config)` works alone. */
export interface ServerDeps {
  readonly engine?: SwarmService;
  readonly events?: EventSink;
  readonly logger?: ServerLogger;
  readonly validator?: ConfigValidator;
  /** The routes, each an operation of the table with its handler (default `DEFAULT_ROUTES`). */
  readonly routes?: readonly Route[];
  /** The built dashboard served at /ui/ (default: `@genswarms/dashboard`'s dist). */
  readonly uiRoot?: string;
  readonly socketHandlers?: Partial<Record<JoinedEvent, JoinedEventHandler>>;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  /** Clock for the auth_denied rate limit. */
  readonly now?: () => number;
  /** `GET /readyz` (default: the engine's store answers; never ready without an engine). */
  readonly readiness?: ReadinessProbe;
  /** Runs after the server closed (e.g. closing the engine). */
  readonly onClose?: () => Promise<void>;
}

/** A listening server. `address` is exactly the configured bind address. */
export interface RunningServer {
  readonly url: string;
  readonly address: string;
  readonly port: number;
  readonly io: SwarmIo;
  close(): Promise<void>;
}

/** `http://<ip>:<port>` with IPv6 bracketed. */
export function formatUrl(address: string, port: number): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** Canonical text of an IP literal (IPv6 compressed/lower-cased) so `fd00:0::1` equals `fd00::1`. */
function canonicalIp(ip: string): string {
  return ip.includes(':') ? new URL(`http://[${ip}]`).hostname.slice(1, -1) : ip;
}

/**
 * Pending connections the kernel may queue for `accept` (capped by `net.core.somaxconn`). Node's default, 511,
 * let 83 of 1,000 clients connecting at once time out while the loop was busy (docs/reliability.md "Load").
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Idle time before the server closes a kept-alive connection. Node's 5 s default fired while the next request
 * was already in the socket when the loop had been busy longer than that (event-loop lag up to 6 s with 100
 * subscribed clients on a loaded box): the request failed ECONNRESET (docs/reliability.md "Load").
 */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 65_000;

function listen(server: HttpServer, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function closeAll(server: HttpServer, io: SwarmIo): Promise<void> {
  return new Promise((resolve) => {
    void io.close();
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * The one start path (`node dist/main.js`, `genswarms up`, embedders, tests): listens on
 * `config.bindAddress` exactly, prints one stdout line `genswarms: listening on http://<ip>:<port>`,
 * and logs a warning (`insecure_bind`) for a non-loopback bind without GENSWARMS_API_TOKEN.
 */
export async function startServer(config: ServerConfig, deps: ServerDeps = {}): Promise<RunningServer> {
  const logger = deps.logger ?? createServerLogger(deps.stderr ?? process.stderr, config.logLevel);
  const metrics = createServerMetrics({ engine: deps.engine });
  const events = countingEventSink(deps.events ?? createMemoryEventSink(), metrics);
  let closing: Promise<void> | undefined;
  const reportDenial = createAuthDeniedReporter({ events, logger, now: deps.now });
  const app = createApp(config, {
    engine: deps.engine,
    events,
    logger,
    reportDenial,
    validator: deps.validator ?? IR_GATE_VALIDATOR,
    routes: deps.routes ?? DEFAULT_ROUTES,
    metrics,
    readiness: deps.readiness ?? engineReadiness(deps.engine),
    closing: () => closing !== undefined,
    uiRoot: deps.uiRoot,
  });
  const server = createServer({ maxHeaderSize: 16384 }, app);
  // A kept-alive connection is closed after this long idle: past a busy stretch of the loop, not within it.
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_TIMEOUT_MS;
  const onError = (err: unknown): void => {
    logger.error('socket_handler_error', { error: err instanceof Error ? err.message : String(err) });
  };
  const io = attachSocketServer(server, {
    ...config,
    reportDenial,
    engine: deps.engine,
    handlers: deps.socketHandlers,
    onError,
    onSlowConsumer: (drop) => {
      metrics.countSlowConsumer();
      logger.warn('slow_consumer', {
        socket: drop.socket,
        swarm: drop.swarm,
        buffered_bytes: drop.bufferedBytes,
        limit_bytes: drop.limitBytes,
      });
    },
  });
  metrics.setSocketClients(() => io.engine.clientsCount);
  const unobserve = deps.engine === undefined ? (): void => undefined : metrics.attachEngine(deps.engine);
  const bridged = bridgeEnginePushes(io, deps.engine, onError);
  const unbridge = (): void => {
    unobserve();
    bridged();
  };
  const info = await listen(server, config.port, config.bindAddress).catch(async (err: unknown) => {
    unbridge();
    await closeAll(server, io);
    throw err;
  });
  if (canonicalIp(info.address) !== canonicalIp(config.bindAddress)) {
    unbridge();
    await closeAll(server, io);
    throw new Error('listening socket address differs from the configured bind address');
  }
  const url = formatUrl(config.bindAddress, info.port);
  (deps.stdout ?? process.stdout).write(`genswarms: listening on ${url}\n`);
  if (!isLoopback(config.bindAddress) && normalizeToken(config.tokens.fullToken) === undefined) {
    logger.warn('insecure_bind', {
      bind: config.bindAddress,
      detail: 'listening on a non-loopback address without GENSWARMS_API_TOKEN; remote callers are refused (token_required)',
    });
  }
  events.emit({
    level: 'info',
    category: 'system',
    swarm: null,
    agent: null,
    event_type: 'server_started',
    message: 'Server started',
    metadata: { port: info.port },
  });
  const closeOnce = async (): Promise<void> => {
    events.emit({
      level: 'info',
      category: 'system',
      swarm: null,
      agent: null,
      event_type: 'server_stopping',
      message: 'Server stopping',
      metadata: {},
    });
    unbridge();
    await closeAll(server, io);
    await deps.onClose?.();
  };
  const close = (): Promise<void> => (closing ??= closeOnce());
  return { url, address: config.bindAddress, port: info.port, io, close };
}
