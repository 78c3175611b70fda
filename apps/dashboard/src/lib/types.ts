/** Shapes of docs/rest-api.md and docs/websocket.md, as the dashboard reads them (extra fields are ignored). */
export interface AgentStatus {
  readonly name: string;
  readonly state: string;
  readonly backend: string;
  readonly client: string;
  readonly network: string;
  readonly inbox_size: number;
  readonly awaiting?: boolean;
  readonly turn: string | null;
  /** Newer servers only: when the current turn started. */
  readonly turn_started_at?: string | null;
  readonly needs_attention: { readonly reason: string; readonly turn?: string | null } | null;
  readonly started_at: string | null;
  readonly last_activity: string | null;
  /** Newer servers only: the isolation the agent actually has. */
  readonly isolation?: unknown;
}

export interface SwarmSummary {
  readonly name: string;
  readonly status: string;
  readonly started_at: string | null;
  readonly agent_count: number;
  readonly object_count: number;
}

export interface Edge {
  readonly from: string;
  readonly targets: readonly string[];
}

export interface SwarmDetail extends SwarmSummary {
  readonly agents: readonly AgentStatus[];
  readonly objects: readonly { name: string; handler: string; state: string }[];
  readonly topology: readonly Edge[];
}

export interface Turn {
  readonly id: string;
  readonly item_id: string;
  readonly from: string;
  readonly status: string;
  readonly reason?: string;
  readonly error?: string;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly reply_preview: string | null;
}

export interface HistoryItem {
  readonly direction: 'received' | 'sent';
  readonly timestamp: string;
  readonly id: string | number;
  readonly kind?: string;
  readonly type?: string;
  readonly from?: string;
  readonly to?: string | readonly string[];
  readonly content_preview: string;
  readonly turn: string | null;
  readonly status?: string;
}

export interface EventRow {
  readonly id: number;
  readonly timestamp: string;
  readonly level: string;
  readonly category: string;
  readonly swarm: string | null;
  readonly agent: string | null;
  readonly event_type: string;
  readonly message: string;
}

export interface LogLine {
  readonly timestamp: string;
  readonly stream: string;
  readonly line: string;
}

/** A validation issue of `POST /api/config/validate` / `POST /api/swarms`. */
export interface Issue {
  readonly path?: string;
  readonly message?: string;
  readonly code?: string;
  readonly name?: string;
}
