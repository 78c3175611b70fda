import type { Namespace, Socket } from 'socket.io';
import type { EnginePush, EventFilterSet, LogEntry } from '@genswarms/engine';

/** Every ack carries `ok`; failures are docs/rest-api.md bodies. */
export type Ack = (response: Record<string, unknown> & { ok: boolean }) => void;

/** Client → server events on `/swarm` (docs/websocket.md). Payloads are untrusted and parsed with zod. */
export interface ClientToServerEvents {
  join: (payload: unknown, ack: Ack) => void;
  send_task: (payload: unknown, ack: Ack) => void;
  get_status: (payload: unknown, ack: Ack) => void;
  subscribe_logs: (payload: unknown, ack: Ack) => void;
  unsubscribe_logs: (payload: unknown, ack: Ack) => void;
  subscribe_events: (payload: unknown, ack: Ack) => void;
  unsubscribe_events: (payload: unknown, ack: Ack) => void;
}

/** The payload of one engine push type. */
export type PushPayload<T extends EnginePush['type']> = Extract<EnginePush, { type: T }>['payload'];

/**
 * Server → client pushes: one socket event per engine push type, with the engine's payload type
 * (`event` carries a stored event), plus `log_entry` (an event in the log shape).
 */
export type ServerToClientEvents = { [T in EnginePush['type']]: (p: PushPayload<T>) => void } & {
  log_entry: (p: LogEntry) => void;
};

export type InterServerEvents = Record<string, never>;

/** Per-socket state: the joined swarm and its subscriptions (reset by every `join`). */
export interface SocketData {
  swarm?: string;
  /** `subscribe_logs`: `all` (no agent given) or the set of agents. */
  logs?: { all: boolean; agents: string[] };
  /** `subscribe_events`: filter sets; an event is pushed once if any matches. */
  eventFilters?: EventFilterSet[];
}

/** Events that need a prior `join`. */
export const JOINED_EVENTS = [
  'send_task',
  'get_status',
  'subscribe_logs',
  'unsubscribe_logs',
  'subscribe_events',
  'unsubscribe_events',
] as const satisfies ReadonlyArray<keyof ClientToServerEvents>;
export type JoinedEvent = (typeof JOINED_EVENTS)[number];

export type SwarmSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type SwarmNamespace = Namespace<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Room of the sockets joined to one swarm. */
export const roomOf = (swarm: string): string => `swarm:${swarm}`;
