import { chmod, chown } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { EgressMeter } from './meter';
import { RelayConnection } from './relay-connection';
import { DEFAULT_RELAY_TIMEOUTS, RELAY_CONNECTIONS_MAX, type RelayTimeouts } from './relay-limits';

/** The metering relay of one agent: a unix socket server in this process. */
export interface RelayServer {
  readonly socketPath: string;
  /** Stops accepting, cuts every connection (their calls settle as `client_closed`). Idempotent. */
  close(): Promise<void>;
}

export interface RelayOptions {
  /** Where the agent connects (the `llm.sock` bound into its sandbox). */
  readonly socketPath: string;
  /** Opens the upstream leg (the pinned socat's private socket). */
  readonly connectUpstream: () => Socket;
  /** `Host` of every request sent upstream: the pinned endpoint's. */
  readonly upstreamHost: string;
  readonly meter: EgressMeter;
  /** The uid:gid that connects (a root server's agent identity); else the socket stays the server's, 0600. */
  readonly client?: { readonly uid: number; readonly gid: number };
  readonly timeouts?: Partial<RelayTimeouts>;
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Listens on `socketPath` (0600; chowned to `client` when given — the directory around it is 0700/0710, so
 * nobody else can reach the socket before the chmod) and relays each connection (RelayConnection). At most
 * RELAY_CONNECTIONS_MAX connections at once: more are refused by the kernel's accept being closed at once.
 */
export async function startRelay(opts: RelayOptions): Promise<RelayServer> {
  const timeouts: RelayTimeouts = { ...DEFAULT_RELAY_TIMEOUTS, ...opts.timeouts };
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    new RelayConnection(socket, { connectUpstream: opts.connectUpstream, upstreamHost: opts.upstreamHost, meter: opts.meter, timeouts });
  });
  server.maxConnections = RELAY_CONNECTIONS_MAX;
  await listen(server, opts.socketPath);
  try {
    await chmod(opts.socketPath, 0o600);
    if (opts.client !== undefined) await chown(opts.socketPath, opts.client.uid, opts.client.gid);
  } catch (err) {
    await new Promise((resolve) => server.close(resolve));
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    socketPath: opts.socketPath,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve()); // node unlinks the socket path as it closes
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
