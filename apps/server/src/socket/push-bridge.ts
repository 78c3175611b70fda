import { redactSecrets } from '@genswarms/security';
import type { EnginePushMessage, EventFilterSet, Json, ServerEngine } from '../engine-port';
import type { ServerToClientEvents } from './socket-events';
import { toLogEntry } from './swarm-handlers';
import type { SwarmNamespace, SwarmSocket } from './swarm-namespace';

/** Room of the sockets joined to one swarm. */
export const roomOf = (swarm: string): string => `swarm:${swarm}`;

const FORWARDED = new Set<keyof ServerToClientEvents>([
  'agent_output',
  'message_routed',
  'message_broadcast',
  'agent_status',
  'turn_completed',
  'needs_attention',
  'swarm_started',
  'swarm_stopped',
  'agent_added',
  'agent_removed',
  'topology_changed',
]);

/** CONTRACT §16: a set matches when each key it has equals the event's field; `{}` matches all. */
export function matchesFilter(event: Json, set: EventFilterSet): boolean {
  return (Object.keys(set) as (keyof EventFilterSet)[]).every((k) => set[k] === undefined || set[k] === event[k]);
}

function socketsIn(nsp: SwarmNamespace, swarm: string): SwarmSocket[] {
  const ids = nsp.adapter.rooms.get(roomOf(swarm));
  if (ids === undefined) return [];
  const out: SwarmSocket[] = [];
  for (const id of ids) {
    const socket = nsp.sockets.get(id);
    if (socket !== undefined && socket.data.swarm === swarm) out.push(socket);
  }
  return out;
}

function deliverEvent(socket: SwarmSocket, event: Json): void {
  const filters = socket.data.eventFilters;
  if (filters !== undefined && filters.some((f) => matchesFilter(event, f))) socket.emit('event', event);
  const logs = socket.data.logs;
  if (logs !== undefined && (logs.all || (typeof event['agent'] === 'string' && logs.agents.includes(event['agent'])))) {
    socket.emit('log_entry', toLogEntry(event));
  }
}

function forward(nsp: SwarmNamespace, swarm: string, push: EnginePushMessage): void {
  if (push.type === 'event') {
    const event = redactSecrets(push.payload) as Json;
    for (const socket of socketsIn(nsp, swarm)) deliverEvent(socket, event);
    return;
  }
  const type = push.type as keyof ServerToClientEvents;
  if (!FORWARDED.has(type)) return;
  const payload = (type === 'agent_added' ? redactSecrets(push.payload) : push.payload) as Json;
  const room = nsp.to(roomOf(swarm)) as unknown as { emit(ev: string, p: unknown): void };
  room.emit(type, payload);
}

/**
 * Feeds the engine's pushes to the sockets joined to that swarm only: state pushes to the whole room,
 * `event`/`log_entry` per socket according to its subscriptions. Returns the unsubscribe function.
 */
export function bridgePushes(nsp: SwarmNamespace, engine: ServerEngine, onError: (err: unknown) => void): () => void {
  return engine.onPush((swarm, push) => {
    try {
      forward(nsp, swarm, push);
    } catch (err) {
      onError(err);
    }
  });
}
