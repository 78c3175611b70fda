import { io as ioClient } from 'socket.io-client';
import type { Socket } from 'socket.io-client';

/** A connected `/swarm` client recording every push in arrival order. */
export interface SwarmClient {
  readonly socket: Socket;
  readonly pushes: Array<{ type: string; payload: Record<string, unknown> }>;
  ask(event: string, payload?: unknown): Promise<Record<string, unknown>>;
  close(): void;
}

export function connectSwarm(url: string, auth: Record<string, unknown> = {}): Promise<SwarmClient> {
  const socket = ioClient(`${url}/swarm`, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000, auth });
  const pushes: SwarmClient['pushes'] = [];
  socket.onAny((type: string, payload: Record<string, unknown>) => pushes.push({ type, payload }));
  return new Promise((resolve, reject) => {
    socket.once('connect', () =>
      resolve({
        socket,
        pushes,
        ask: (event, payload) => socket.timeout(10000).emitWithAck(event, payload) as Promise<Record<string, unknown>>,
        close: () => socket.close(),
      }),
    );
    socket.once('connect_error', reject);
  });
}
