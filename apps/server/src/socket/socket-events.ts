import type { EventFilterSet } from '../engine-port';

/** Every ack carries `ok`; failures are CONTRACT §4 bodies. */
export type Ack = (response: Record<string, unknown> & { ok: boolean }) => void;

/** Client → server events on `/swarm` (CONTRACT §16). Payloads are untrusted and parsed with zod. */
export interface ClientToServerEvents {
  join: (payload: unknown, ack: Ack) => void;
  send_task: (payload: unknown, ack: Ack) => void;
  get_status: (payload: unknown, ack: Ack) => void;
  subscribe_logs: (payload: unknown, ack: Ack) => void;
  unsubscribe_logs: (payload: unknown, ack: Ack) => void;
  subscribe_events: (payload: unknown, ack: Ack) => void;
  unsubscribe_events: (payload: unknown, ack: Ack) => void;
}

/** Server → client pushes (CONTRACT §16). */
export interface ServerToClientEvents {
  agent_output: (p: { agent: string; stream: 'stdout' | 'stderr'; content: string }) => void;
  message_routed: (p: Record<string, unknown>) => void;
  message_broadcast: (p: Record<string, unknown>) => void;
  agent_status: (p: { agent: string; state: string; previous: string | null }) => void;
  turn_completed: (p: Record<string, unknown>) => void;
  needs_attention: (p: { agent: string; turn: string | null; reason: string }) => void;
  swarm_started: (p: { swarm: string; status: 'running' | 'error' }) => void;
  swarm_stopped: (p: { swarm: string }) => void;
  agent_added: (p: { name: string; spec: unknown }) => void;
  agent_removed: (p: { name: string }) => void;
  topology_changed: (p: { topology: Array<{ from: string; targets: string[] }> }) => void;
  log_entry: (p: Record<string, unknown>) => void;
  event: (p: Record<string, unknown>) => void;
}

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
