/** docs/websocket.md outbound pushes the engine produces, per swarm. The server forwards them to joined sockets. */
import type { StoredEvent } from '../store/store';

export interface TopologyEntry {
  readonly from: string;
  readonly targets: readonly string[];
}

export type EnginePush =
  | { readonly type: 'agent_output'; readonly payload: { agent: string; stream: 'stdout' | 'stderr'; content: string } }
  | {
      readonly type: 'message_routed';
      readonly payload: { timestamp: string; swarm: string; from: string; to: string; type: 'direct' | 'ask'; content_preview: string };
    }
  | {
      readonly type: 'message_broadcast';
      readonly payload: {
        timestamp: string;
        swarm: string;
        from: string;
        to: readonly string[];
        type: 'broadcast';
        content_preview: string;
      };
    }
  | { readonly type: 'agent_status'; readonly payload: { agent: string; state: string; previous: string | null } }
  | {
      readonly type: 'turn_completed';
      readonly payload: {
        agent: string;
        turn: string;
        status: 'completed' | 'error' | 'timed_out';
        error?: string;
        reply_preview: string | null;
      };
    }
  | { readonly type: 'needs_attention'; readonly payload: { agent: string; turn: string | null; reason: string } }
  | { readonly type: 'swarm_started'; readonly payload: { swarm: string; status: 'running' | 'error' } }
  | { readonly type: 'swarm_stopped'; readonly payload: { swarm: string } }
  | { readonly type: 'agent_added'; readonly payload: { name: string; spec: unknown } }
  | { readonly type: 'agent_removed'; readonly payload: { name: string } }
  | { readonly type: 'topology_changed'; readonly payload: { topology: readonly TopologyEntry[] } }
  | { readonly type: 'event'; readonly payload: StoredEvent };

export type PushListener = (swarm: string, push: EnginePush) => void;

/** Fan-out of pushes; a failing listener never breaks the engine. */
export class PushHub {
  private readonly listeners = new Set<PushListener>();

  on(listener: PushListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  push(swarm: string, push: EnginePush): void {
    for (const l of this.listeners) {
      try {
        l(swarm, push);
      } catch {
        // best-effort: a failing push subscriber (a closed socket) never breaks the engine or the other subscribers
      }
    }
  }
}
