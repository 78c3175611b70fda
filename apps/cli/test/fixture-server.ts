import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as IoServer } from 'socket.io';
import type { Socket as IoSocket } from 'socket.io';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  text: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  text?: string;
  contentType?: string;
}

export type Router = (req: RecordedRequest) => Reply;

export interface SocketHandshake {
  auth: Record<string, unknown>;
  authorization: string | undefined;
  emitted: Array<{ event: string; payload: unknown }>;
}

/** What the fixture's `/swarm` namespace does after auth (docs/websocket.md shapes). */
export interface SocketScript {
  /** Expected token (auth.token); undefined = no auth required. */
  token?: string;
  knownSwarms: readonly string[];
  recentLogs?: unknown[];
  /** Called after a successful subscribe_logs / join; may push events to the socket. */
  onSubscribeLogs?: (socket: IoSocket, payload: unknown) => void;
  onJoin?: (socket: IoSocket, swarm: string) => void;
}

export interface FixtureServer {
  url: string;
  requests: RecordedRequest[];
  handshakes: SocketHandshake[];
  setRouter(router: Router): void;
  setSocketScript(script: SocketScript): void;
  close(): Promise<void>;
}

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function attachNamespace(io: IoServer, state: { script: SocketScript; handshakes: SocketHandshake[] }): void {
  const nsp = io.of('/swarm');
  nsp.use((socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    state.handshakes.push({ auth, authorization: socket.handshake.headers.authorization, emitted: [] });
    const expected = state.script.token;
    if (expected !== undefined && auth['token'] !== expected) {
      const err = new Error('unauthorized') as Error & { data?: unknown };
      err.data = { error: 'unauthorized', message: 'Invalid or missing API token' };
      next(err);
      return;
    }
    next();
  });
  nsp.on('connection', (socket) => {
    const record = state.handshakes[state.handshakes.length - 1];
    socket.onAny((event: string, payload: unknown) => record?.emitted.push({ event, payload }));
    socket.on('join', (p: { swarm?: unknown }, ack: (a: unknown) => void) => {
      const swarm = typeof p?.swarm === 'string' ? p.swarm : '';
      if (!state.script.knownSwarms.includes(swarm)) return ack({ ok: false, error: 'swarm_not_found', message: 'No such swarm' });
      ack({ ok: true, swarm });
      state.script.onJoin?.(socket, swarm);
    });
    socket.on('subscribe_logs', (p: { agent?: unknown }, ack: (a: unknown) => void) => {
      ack({ ok: true, subscribed: true, agent: typeof p?.agent === 'string' ? p.agent : null, recent_logs: state.script.recentLogs ?? [] });
      state.script.onSubscribeLogs?.(socket, p);
    });
  });
}

/** A real node:http + socket.io server on 127.0.0.1:0 that records every request and answers via `router`. */
export async function startFixtureServer(
  router: Router = () => ({ status: 404, body: { error: 'not_found', message: 'No route' } }),
  /** socket.io's path (a server behind a path prefix serves it under the prefix). */
  socketPath = '/socket.io',
): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  let current = router;
  const state: { script: SocketScript; handshakes: SocketHandshake[] } = { script: { knownSwarms: [] }, handshakes: [] };
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: parse(text), text };
      requests.push(rec);
      const r = current(rec);
      res.writeHead(r.status, { 'content-type': r.contentType ?? 'application/json; charset=utf-8' });
      res.end(r.text ?? JSON.stringify(r.body ?? {}));
    });
  });
  const io = new IoServer(http, { path: socketPath, transports: ['websocket'] });
  attachNamespace(io, state);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    requests,
    handshakes: state.handshakes,
    setRouter: (r) => (current = r),
    setSocketScript: (s) => (state.script = s),
    close: async () => {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        void io.close(() => resolve());
      });
    },
  };
}
