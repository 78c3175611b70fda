import { io as ioClient } from 'socket.io-client';
import type { ManagerOptions, SocketOptions } from 'socket.io-client';

/** Result of a socket.io connect attempt to `/swarm` followed by a `join`. */
export type SocketOutcome = { connected: true; ack: Record<string, unknown> | null } | { connected: false; message: string; data: unknown };

/** Connects a real socket.io client (websocket only), joins `nope`, closes. */
export function trySocket(url: string, opts: Partial<ManagerOptions & SocketOptions> = {}, nsp = '/swarm'): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const socket = ioClient(`${url}${nsp}`, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000, ...opts });
    socket.on('connect', () => {
      socket.timeout(5000).emit('join', { swarm: 'nope' }, (err: Error | null, ack: Record<string, unknown>) => {
        socket.close();
        resolve({ connected: true, ack: err ? null : ack });
      });
    });
    socket.on('connect_error', (err: Error & { data?: unknown }) => {
      socket.close();
      resolve({ connected: false, message: err.message, data: err.data ?? null });
    });
  });
}

/** A plain HTTP request from this (loopback) process. */
export async function httpRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Headers; body: string }> {
  const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  return { status: res.status, headers: res.headers, body: await res.text() };
}
