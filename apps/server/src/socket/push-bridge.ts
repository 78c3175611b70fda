import { redactSecrets } from '@genswarms/security';
import { eventMatches, toLogEntry } from '@genswarms/engine';
import type { EnginePush, StoredEvent, SwarmService } from '@genswarms/engine';
import type { PushPayload, SwarmNamespace, SwarmSocket } from './socket-events';
import { roomOf } from './socket-events';

type StatePush = Exclude<EnginePush, { type: 'event' }>;

const FORWARDED = new Set<StatePush['type']>([
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

/**
 * An event to the sockets whose subscriptions ask for it: one broadcast to exactly those sockets (each is in
 * the room of its own id), so the packet is encoded once, not once per socket (with 100 subscribers
 * the per-socket encoding was the event loop's largest cost). Each socket still gets `event` before `log_entry`.
 */
function deliverEvent(nsp: SwarmNamespace, sockets: readonly SwarmSocket[], event: StoredEvent): void {
  const wantEvent: string[] = [];
  const wantLog: string[] = [];
  for (const socket of sockets) {
    const filters = socket.data.eventFilters;
    if (filters !== undefined && filters.some((f) => eventMatches(event, f))) wantEvent.push(socket.id);
    const logs = socket.data.logs;
    if (logs !== undefined && (logs.all || (event.agent !== null && logs.agents.includes(event.agent)))) wantLog.push(socket.id);
  }
  if (wantEvent.length > 0) nsp.to(wantEvent).emit('event', event);
  if (wantLog.length > 0) nsp.to(wantLog).emit('log_entry', toLogEntry(event));
}

/** Emits one state push to the room; `agent_added` carries an agent spec and is redacted again at the edge. */
function emitState(nsp: SwarmNamespace, swarm: string, push: StatePush): void {
  const payload = push.type === 'agent_added' ? redactSecrets(push.payload) : push.payload;
  // socket.io types `emit` per literal event name; a value of the push union needs this one widening.
  const room = nsp.to(roomOf(swarm)) as unknown as { emit<T extends StatePush['type']>(ev: T, p: PushPayload<T>): void };
  room.emit(push.type, payload as PushPayload<typeof push.type>);
}

function forward(nsp: SwarmNamespace, swarm: string, push: EnginePush): void {
  // A swarm nobody watches costs nothing per push (no redaction, no packet encoded for an empty room).
  if ((nsp.adapter.rooms.get(roomOf(swarm))?.size ?? 0) === 0) return;
  if (push.type === 'event') {
    const sockets = socketsIn(nsp, swarm);
    if (sockets.length === 0) return;
    const event = redactSecrets(push.payload);
    deliverEvent(nsp, sockets, event);
    return;
  }
  if (FORWARDED.has(push.type)) emitState(nsp, swarm, push);
}

/**
 * Feeds the engine's pushes to the sockets joined to that swarm only: state pushes to the whole room,
 * `event`/`log_entry` per socket according to its subscriptions. Returns the unsubscribe function.
 */
export function bridgePushes(nsp: SwarmNamespace, engine: SwarmService, onError: (err: unknown) => void): () => void {
  return engine.onPush((swarm, push) => {
    try {
      forward(nsp, swarm, push);
    } catch (err) {
      onError(err);
    }
  });
}
