import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { readToken } from './session';

/** Pushes of docs/websocket.md the dashboard listens to. */
export const PUSHES = [
  'agent_status',
  'turn_completed',
  'needs_attention',
  'agent_added',
  'agent_removed',
  'topology_changed',
  'message_routed',
  'message_broadcast',
  'swarm_started',
  'swarm_stopped',
  'agent_output',
  'event',
] as const;
export type PushName = (typeof PUSHES)[number];

export interface LiveSwarm {
  /** Resolves with the recent events once joined and subscribed. */
  readonly ready: Promise<unknown[]>;
  sendTask(agent: string, task: string): Promise<Record<string, unknown>>;
  close(): void;
}

/**
 * One socket.io connection to `/swarm`, joined to one swarm, subscribed to every event. The token goes in
 * `auth.token` only (never the query string). A refused handshake calls `onDenied` with its code.
 */
export function connectSwarm(
  swarm: string,
  onPush: (name: PushName, payload: Record<string, unknown>) => void,
  onDenied: (code: string) => void,
): LiveSwarm {
  const token = readToken();
  const socket: Socket = io(`${location.origin}/swarm`, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: token === undefined || token === '' ? {} : { token },
    reconnectionDelayMax: 5000,
  });
  for (const name of PUSHES) socket.on(name, (payload: Record<string, unknown>) => onPush(name, payload));
  socket.on('connect_error', (err: Error) => {
    if (err.message === 'unauthorized' || err.message === 'token_required' || err.message === 'origin_not_allowed') {
      socket.close();
      onDenied(err.message);
    }
  });
  const join = async (): Promise<unknown[]> => {
    const joined = (await socket.emitWithAck('join', { swarm })) as { ok: boolean; error?: string };
    if (!joined.ok) throw new Error(joined.error ?? 'join_failed');
    const sub = (await socket.emitWithAck('subscribe_events', {})) as { ok: boolean; recent_events?: unknown[] };
    return sub.recent_events ?? [];
  };
  const ready = new Promise<unknown[]>((resolve, reject) => {
    // A reconnect joins again (the server forgets a socket's swarm when it disconnects).
    socket.on('connect', () => {
      join().then(resolve, reject);
    });
  });
  return {
    ready,
    sendTask: async (agent, task) => (await socket.emitWithAck('send_task', { agent, task })) as Record<string, unknown>,
    close: () => socket.close(),
  };
}
