import type { Schemas } from '@genswarms/client';

/**
 * The API's shapes, from `@genswarms/client` (generated from the server's OpenAPI document). `isolation`
 * is read when a server reports it (newer servers), and shown whatever its shape.
 */
export type AgentStatus = Omit<Schemas['AgentStatus'], 'llm_usage'> & {
  readonly isolation?: unknown;
  /** Absent from an older server. */
  readonly llm_usage?: Schemas['LlmUsage'];
};
export type SwarmSummary = Schemas['SwarmSummary'];
export type Edge = Schemas['TopologyEntry'];
export type SwarmDetail = Omit<Schemas['SwarmDetail'], 'agents' | 'llm_usage'> & {
  readonly agents: readonly AgentStatus[];
  /** Absent from an older server. */
  readonly llm_usage?: Schemas['LlmUsage'];
};
export type Turn = Schemas['TurnView'];
export type HistoryItem = Schemas['HistoryEntry'];
export type EventRow = Schemas['StoredEvent'];

/** A validation issue of `POST /api/config/validate` / `POST /api/swarms` (the `issues` detail). */
export interface Issue {
  readonly path?: string;
  readonly message?: string;
  readonly code?: string;
  readonly name?: string;
}
