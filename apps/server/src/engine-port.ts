/**
 * What the server edge needs from an engine. The engine helper provides an implementation; until then
 * the server runs without one (`GET /api/swarms` → `{swarms: []}`, socket `join` → `swarm_not_found`).
 */
export interface ServerEngine {
  /** Swarm summaries for `GET /api/swarms` (already redacted). */
  listSwarms(): Promise<readonly unknown[]>;
  /** Whether `join` may enter this swarm (running or known to the store). */
  hasSwarm(name: string): Promise<boolean>;
}
