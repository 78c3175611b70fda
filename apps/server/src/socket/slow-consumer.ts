import type { SwarmSocket } from './socket-events';

/** The engine.io connection under a socket.io socket. */
type EngineSocket = SwarmSocket['conn'];

/** Default bound on what one socket.io connection may have queued but not yet sent (docs/websocket.md): 8 MiB. */
export const SOCKET_MAX_BUFFERED_BYTES = 8388608;
/** WebSocket close code sent to a slow consumer (the 4000–4999 range is the application's). */
export const SLOW_CONSUMER_CLOSE_CODE = 4008;
/** The close reason a slow consumer reads after its backlog (docs/websocket.md). */
export const SLOW_CONSUMER_REASON = 'slow_consumer';

/** What the server knows of one connection it dropped for being slow; no payload, no token. */
export interface SlowConsumerDrop {
  readonly bufferedBytes: number;
  readonly limitBytes: number;
}

/** The parts of the `ws` WebSocket under engine.io's websocket transport that the bound reads. */
interface QueuedSocket {
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
}

function isQueuedSocket(value: unknown): value is QueuedSocket {
  const v = value as Partial<QueuedSocket> | null;
  return typeof v === 'object' && v !== null && typeof v.bufferedAmount === 'number' && typeof v.close === 'function';
}

/** The live websocket of a connection (transports: websocket only), or undefined once it is gone. */
function websocketOf(conn: EngineSocket): QueuedSocket | undefined {
  const ws = (conn.transport as unknown as { socket?: unknown } | undefined)?.socket;
  return isQueuedSocket(ws) ? ws : undefined;
}

function packetBytes(packet: { data?: unknown }): number {
  const data = packet.data;
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength;
  return 0;
}

/**
 * Bounds what one connection holds for a client that does not read: engine.io's write buffer (packets
 * waiting for the transport, counted from `packetCreate` until the next `flush`) plus the websocket's
 * `bufferedAmount` (bytes handed to the TCP socket the kernel has not taken). The kernel's own socket
 * buffers come on top and are bounded by the kernel. When a new packet takes the total over `limitBytes`,
 * the connection is closed with code 4008 `slow_consumer` (queued behind what the client has not read; the
 * `ws` close timeout destroys the TCP socket 30 s later at most) and engine.io's write buffer is discarded:
 * nothing more is queued for it, so its memory stays under the bound whatever the traffic.
 */
export function boundSlowConsumer(conn: EngineSocket, limitBytes: number, onDrop: (drop: SlowConsumerDrop) => void): void {
  let pendingBytes = 0;
  let dropped = false;
  conn.on('flush', () => {
    pendingBytes = 0;
  });
  conn.on('packetCreate', (packet: { data?: unknown }) => {
    if (dropped) return;
    pendingBytes += packetBytes(packet);
    const ws = websocketOf(conn);
    const bufferedBytes = pendingBytes + (ws?.bufferedAmount ?? 0);
    if (bufferedBytes <= limitBytes) return;
    dropped = true;
    onDrop({ bufferedBytes, limitBytes });
    // After this packet is queued (socket.io may be in the middle of a broadcast): close, discarding the rest.
    process.nextTick(() => {
      ws?.close(SLOW_CONSUMER_CLOSE_CODE, SLOW_CONSUMER_REASON);
      conn.close(true);
    });
  });
}
