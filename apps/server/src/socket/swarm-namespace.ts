import { JoinCommandSchema } from '@genswarms/engine';
import type { SwarmService } from '@genswarms/engine';
import type { Ack, JoinedEvent, SwarmNamespace, SwarmSocket } from './socket-events';
import { JOINED_EVENTS, roomOf } from './socket-events';

export type { SwarmNamespace, SwarmSocket } from './socket-events';

/** Handler for an event after `join` (`createSwarmHandlers` builds them over the SwarmService). */
export type JoinedEventHandler = (
  socket: SwarmSocket,
  swarm: string,
  payload: unknown,
) => Promise<Record<string, unknown> & { ok: boolean }>;

const fail = (error: string, message: string): { ok: false; error: string; message: string } => ({ ok: false, error, message });

/** Calls `ack` only when the client supplied one (a missing ack is not an error). */
function safeAck(ack: unknown): Ack {
  return typeof ack === 'function' ? (ack as Ack) : () => undefined;
}

/**
 * socket.io passes the client's ack as the LAST argument, whatever came before it: `emit(ev, ack)`
 * has no payload, `emit(ev, payload, extra, ack)` has an extra one. The payload is the first argument
 * unless that is the ack itself.
 */
export function splitArgs(args: readonly unknown[]): { payload: unknown; ack: Ack } {
  const last = args[args.length - 1];
  const ack = safeAck(last);
  const first = args[0];
  return { payload: typeof first === 'function' ? undefined : first, ack };
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set<string>(['join', ...JOINED_EVENTS]);

async function onJoin(
  socket: SwarmSocket,
  engine: SwarmService | undefined,
  payload: unknown,
): Promise<Record<string, unknown> & { ok: boolean }> {
  const parsed = JoinCommandSchema.safeParse(payload);
  const known = parsed.success && engine !== undefined && (await engine.hasSwarm(parsed.data.swarm));
  if (!parsed.success || !known) return fail('swarm_not_found', 'No such swarm');
  const swarm = parsed.data.swarm;
  if (socket.data.swarm !== undefined) await socket.leave(roomOf(socket.data.swarm));
  socket.data.swarm = swarm;
  socket.data.logs = undefined;
  socket.data.eventFilters = undefined;
  await socket.join(roomOf(swarm));
  return { ok: true, swarm };
}

/**
 * `/swarm` (docs/websocket.md): `join {swarm}` (a socket is in at most one swarm); every other event acks
 * `not_joined` before a join, and is delegated to `handlers` after it.
 */
export function registerSwarmNamespace(
  nsp: SwarmNamespace,
  opts: { engine?: SwarmService; handlers?: Partial<Record<JoinedEvent, JoinedEventHandler>>; onError: (err: unknown) => void },
): void {
  nsp.on('connection', (socket) => {
    const respond = (ack: Ack, work: () => Promise<Record<string, unknown> & { ok: boolean }>): void => {
      work().then(ack, (err: unknown) => {
        opts.onError(err);
        ack(fail('internal_error', 'Internal error'));
      });
    };
    socket.on('join', (...args: unknown[]) => {
      const { payload, ack } = splitArgs(args);
      respond(ack, () => onJoin(socket, opts.engine, payload));
    });
    // An event this namespace does not serve still gets an answer when the client waits for one.
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event === 'string' && KNOWN_EVENTS.has(event)) return;
      splitArgs(args).ack(fail('not_found', 'Event not supported'));
    });
    for (const event of JOINED_EVENTS) {
      socket.on(event, (...args: unknown[]) => {
        const { payload, ack } = splitArgs(args);
        respond(ack, async () => {
          const swarm = socket.data.swarm;
          if (swarm === undefined) return fail('not_joined', 'Join a swarm first');
          const handler = opts.handlers?.[event];
          return handler === undefined ? fail('not_found', 'Event not supported') : handler(socket, swarm, payload);
        });
      });
    }
  });
}
