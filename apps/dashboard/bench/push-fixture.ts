/**
 * A stand-in server for the frame-time benchmark: serves the built dashboard at /ui/, answers the few REST
 * reads the swarm page makes for one 1,000-agent swarm, and pushes `event` + `agent_status` at a fixed
 * rate over socket.io (the real server on a shared 2-core machine cannot produce 500 events/s).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from 'socket.io';

const DIST = join(__dirname, '..', 'dist');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export interface PushFixture {
  readonly url: string;
  /** Starts pushing `perSecond` pushes (half events, half agent status changes). */
  startPushing(perSecond: number): void;
  readonly pushed: () => number;
  close(): Promise<void>;
}

export async function startPushFixture(agentCount: number): Promise<PushFixture> {
  const agents = Array.from({ length: agentCount }, (_, i) => ({
    name: `a${String(i).padStart(4, '0')}`,
    swarm: 'bench',
    state: 'idle',
    backend: 'mock',
    client: 'genswarms-agent',
    network: 'open',
    inbox_size: 0,
    awaiting: false,
    turn: null,
    needs_attention: null,
    started_at: new Date().toISOString(),
    last_activity: null,
  }));
  const detail = {
    name: 'bench',
    status: 'running',
    started_at: null,
    agent_count: agentCount,
    object_count: 0,
    agents,
    objects: [],
    topology: [],
  };
  const http = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0] ?? '/';
    const json = (body: unknown): void => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url === '/api/swarms')
      return json({ swarms: [{ name: 'bench', status: 'running', started_at: null, agent_count: agentCount, object_count: 0 }] });
    if (url === '/api/swarms/bench') return json(detail);
    if (url === '/api/swarms/bench/agents') return json({ agents });
    if (url.startsWith('/ui/')) {
      const file = url === '/ui/' ? 'index.html' : url.slice(4);
      if (/^[a-z-]+\.[a-z]+$/.test(file)) {
        res.writeHead(200, { 'Content-Type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
        res.end(readFileSync(join(DIST, file)));
        return;
      }
    }
    res.writeHead(404).end();
  });
  const io = new Server(http, { transports: ['websocket'] });
  io.of('/swarm').on('connection', (socket) => {
    socket.on('join', (_p: unknown, ack: (r: unknown) => void) => {
      void socket.join('bench');
      ack({ ok: true, swarm: 'bench' });
    });
    socket.on('subscribe_events', (_p: unknown, ack: (r: unknown) => void) =>
      ack({ ok: true, subscribed: true, filters: [], recent_events: [] }),
    );
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  let timer: NodeJS.Timeout | undefined;
  let pushed = 0;
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    startPushing(perSecond) {
      const TICK_MS = 10;
      let due = 0;
      const start = Date.now();
      timer = setInterval(() => {
        due = Math.floor(((Date.now() - start) / 1000) * perSecond);
        const room = io.of('/swarm').to('bench');
        for (; pushed < due; pushed++) {
          const agent = agents[pushed % agentCount]?.name ?? 'a0000';
          if (pushed % 2 === 0) {
            room.emit('event', {
              id: pushed,
              timestamp: new Date().toISOString(),
              level: 'info',
              category: 'agent',
              swarm: 'bench',
              agent,
              event_type: 'turn_started',
              message: `Turn ${pushed} started.`,
              metadata: {},
            });
          } else {
            room.emit('agent_status', { agent, state: pushed % 4 === 1 ? 'busy' : 'idle', previous: 'idle' });
          }
        }
      }, TICK_MS);
    },
    pushed: () => pushed,
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      await new Promise<void>((r) => void io.close(() => r()));
    },
  };
}
