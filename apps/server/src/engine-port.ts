/**
 * What the server edge needs from an engine (CONTRACT §15-§17). `boot/engine-adapter.ts` implements it
 * over `@genswarms/engine`; tests may pass a partial fake. Every method throws an `EngineError` whose
 * `code`/`status` the routes turn 1:1 into a §4 body. Names arrive already checked against the Name
 * grammar; bodies arrive already shape-checked by the route's zod schema (the engine re-validates).
 */
export type Json = Record<string, unknown>;

/** `{config}` inline object or `{path}` confined under GENSWARMS_SWARM_CONFIG_DIR (§7). */
export type StartInput = { readonly config: unknown } | { readonly path: string };

/** One topology edge as the route normalised it. */
export type Edge = readonly [from: string, to: string];

/** §16 subscription filter set; `{}` matches every event. */
export interface EventFilterSet {
  readonly level?: string;
  readonly category?: string;
  readonly event_type?: string;
  readonly agent?: string;
}

/** A §16 outbound push for one swarm (`event` carries the stored §17 event). */
export interface EnginePushMessage {
  readonly type: string;
  readonly payload: unknown;
}

export interface ServerEngine {
  /** Swarm summaries for `GET /api/swarms` (already redacted). */
  listSwarms(): Promise<readonly unknown[]>;
  /** Whether `join` may enter this swarm (running or known to the store). */
  hasSwarm(name: string): Promise<boolean>;

  startSwarm(input: StartInput): Promise<Json>;
  getSwarm(swarm: string): Promise<Json>;
  stopSwarm(swarm: string, opts: { purge: boolean }): Promise<Json>;
  restartSwarm(swarm: string, opts: { deleteData: boolean }): Promise<Json>;
  pauseSwarm(swarm: string): Promise<Json>;
  resumeSwarm(swarm: string): Promise<Json>;

  sendMessage(swarm: string, msg: { from: string; to: string; content: string }): Promise<Json>;
  listMessages(swarm: string, limit: number): Promise<Json>;

  listAgents(swarm: string): Promise<Json>;
  addAgent(swarm: string, body: Json): Promise<Json>;
  getAgent(swarm: string, agent: string): Promise<Json>;
  removeAgent(swarm: string, agent: string): Promise<Json>;
  sendTask(swarm: string, agent: string, task: string): Promise<Json>;
  restartAgent(swarm: string, agent: string): Promise<Json>;
  resumeAgent(swarm: string, agent: string): Promise<Json>;
  listTurns(swarm: string, agent: string, limit: number): Promise<Json>;
  agentHistory(swarm: string, agent: string, limit: number): Promise<Json>;
  agentLogs(swarm: string, agent: string): Promise<Json>;
  scaleAgent(swarm: string, base: string, count: number): Promise<Json>;

  getTopology(swarm: string): Promise<Json>;
  patchTopology(swarm: string, patch: { add: readonly Edge[]; remove: readonly Edge[] }): Promise<Json>;

  listObjects(swarm: string): Promise<Json>;
  addObject(swarm: string, body: Json): Promise<Json>;
  getObject(swarm: string, object: string): Promise<Json>;
  removeObject(swarm: string, object: string): Promise<Json>;
  patchObjectConfig(swarm: string, object: string, config: unknown): Promise<Json>;

  /** `{swarm, events}`; `[]` for an unknown swarm. */
  getOverlay(swarm: string): Promise<Json>;
  clearOverlay(swarm: string): Promise<Json>;
  /** The effective config (seed ⊕ overlay) in the §13 format. */
  snapshot(swarm: string): Promise<Json>;

  /** `{skills, count}` from the engine's skills root (relative paths only). */
  listSkills(): Promise<Json>;
  /** `{name, content, size}`; EngineError `invalid_name` (400) or `not_found` (404). */
  readSkill(name: string): Promise<Json>;

  /** §17 query: raw query values (validated by the engine → `invalid_query` + `param`). */
  queryEvents(raw: Json, scope: { swarm?: string; agent?: string }): Promise<Json>;
  /** The newest `limit` events of a swarm matching any of `filters`, oldest first. */
  recentEvents(swarm: string, filters: readonly EventFilterSet[], limit: number): Promise<readonly Json[]>;

  /** Every §16 push of every swarm; returns the unsubscribe function. */
  onPush(listener: (swarm: string, push: EnginePushMessage) => void): () => void;
}
