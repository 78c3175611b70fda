import type { AgentIdTable } from './agent-ids';
import type { LlmUsageTable } from './llm-usage';
/**
 * The persistence port. Every method is atomic on its own; the methods that must change several
 * rows together (dispatch, enqueue with a cap, turn completion) are single methods so that another
 * implementation (PostgreSQL) can run them in one transaction too. All methods are async for that
 * reason, although the SQLite store does its work synchronously.
 */
export type SwarmStatus = 'starting' | 'running' | 'stopping' | 'stopped' | 'error';
export type SessionState = 'starting' | 'idle' | 'busy' | 'needs_attention' | 'failed' | 'stopped';
export type TurnStatus = 'running' | 'completed' | 'error' | 'rejected' | 'timed_out' | 'cancelled';
export type ItemKind = 'task' | 'message';

export interface SwarmRow {
  readonly name: string;
  /** The validated seed config (JSON), as given; the overlay is replayed on top of it. */
  readonly config: unknown;
  /** Directory relative workspace/skill paths resolved against (null for the engine default). */
  readonly baseDir: string | null;
  readonly status: SwarmStatus;
  readonly startedAt: string | null;
  readonly stoppedAt: string | null;
}

/** A swarm row without its config. */
export type SwarmHead = Pick<SwarmRow, 'name' | 'status' | 'startedAt' | 'stoppedAt'>;

export interface AttentionInfo {
  readonly reason: string;
  readonly turn: string | null;
  /**
   * (additive) `client_prompt_blocked`: what the client's screen showed (docs/clients.md "Pane mode"). Kept while the
   * server runs (status, the `agent_needs_attention` event); not stored: a restarted server shows the reason alone.
   */
  readonly details?: AttentionDetails;
}

/** What a stuck TUI client showed: its dialog's name, where the delivery stopped, its screen's last lines (bounded). */
export interface AttentionDetails {
  readonly dialog?: string;
  readonly stage?: string;
  readonly last_lines?: readonly string[];
}

export interface SessionRow {
  readonly swarm: string;
  readonly agent: string;
  readonly state: SessionState;
  readonly needsAttention: AttentionInfo | null;
  /** The runner's SessionDescription (names only, never env values). */
  readonly description: unknown;
  /** Real path of the workspace, fixed at session start. */
  readonly workspace: string | null;
  readonly startedAt: string | null;
  readonly lastActivity: string | null;
}

export interface TurnRow {
  readonly id: string;
  readonly swarm: string;
  readonly agent: string;
  readonly itemId: string;
  readonly kind: ItemKind;
  readonly from: string;
  readonly content: string;
  readonly seq: number;
  readonly status: TurnStatus;
  readonly reason: string | null;
  readonly error: string | null;
  readonly startedAt: string;
  readonly completedAt: string | null;
  readonly replyPreview: string | null;
  readonly timedOut: boolean;
  /** When the item entered the inbox (null for turns stored before schema v2). */
  readonly receivedAt: string | null;
  /** True once the inbox file / paste for this turn was handed to the agent. */
  readonly delivered: boolean;
}

export interface InboxItemRow {
  readonly id: string;
  readonly swarm: string;
  readonly agent: string;
  readonly kind: ItemKind;
  readonly from: string;
  readonly content: string;
  readonly createdAt: string;
}

export interface OverlayEventRow {
  readonly swarm: string;
  readonly seq: number;
  readonly op: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly timestamp: string;
}

export interface MessageRow {
  readonly id: number;
  readonly timestamp: string;
  readonly swarm: string;
  readonly from: string;
  readonly to: string | readonly string[];
  readonly type: 'direct' | 'ask' | 'broadcast';
  readonly content_preview: string;
  readonly turn: string | null;
}

export type EventLevel = 'debug' | 'info' | 'warning' | 'error';
export type EventCategory = 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';

export interface StoredEvent {
  readonly id: number;
  readonly timestamp: string;
  readonly level: EventLevel;
  readonly category: EventCategory;
  readonly swarm: string | null;
  readonly agent: string | null;
  readonly event_type: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export type NewEvent = Omit<StoredEvent, 'id'>;

/**
 * An event written in the same transaction as the write it records (one commit instead of two, for
 * throughput). `make` runs inside that transaction with the write's result and answers the event's row, or
 * null for none (e.g. nothing changed); the store sets `stored` to the inserted event. Nothing is committed
 * twice and nothing is pushed by the store: the caller announces `stored` after the write returned.
 */
export interface EventAlong<R> {
  readonly make: (result: R) => NewEvent | null;
  stored: StoredEvent | null;
}

export interface EventQuery {
  readonly level?: EventLevel;
  readonly category?: EventCategory;
  readonly swarm?: string;
  readonly agent?: string;
  readonly eventType?: string;
  /** Only events at or after this ISO time. */
  readonly sinceTime?: string;
  readonly limit: number;
  /** When set: events with id > sinceId, oldest first; else newest first. */
  readonly sinceId?: number;
}

export type EnqueueResult = { kind: 'ok'; item: InboxItemRow; queued: number } | { kind: 'full'; limit: number };

export interface DispatchRequest {
  readonly swarm: string;
  readonly agent: string;
  readonly turnId: string;
  readonly now: string;
  /** While awaiting (docs/messaging.md) only message items are eligible. */
  readonly messagesOnly: boolean;
  /**
   * The turn's seq is above this too (the highest seq already used in the agent's workspace: inbox
   * files and the agent's high-water mark left by an earlier run, e.g. after a purge). Default 0.
   */
  readonly seqFloor?: number;
}

/** A persisted object handler state (docs/messaging.md objects; kept across restart/recovery). */
export interface ObjectStateRow {
  readonly swarm: string;
  readonly object: string;
  /** The handler the state belongs to: a state is only restored into the same handler. */
  readonly handler: string;
  /** The state as JSON text, exactly as saved (parse it with `parseObjectState`). */
  readonly stateJson: string;
  readonly updatedAt: string;
}

export type TurnFinish = {
  readonly status: Exclude<TurnStatus, 'running'>;
  readonly reason?: string | null;
  readonly error?: string | null;
  readonly replyPreview?: string | null;
  /** The whole reply (reply.md as read under the receipts rules, at most 1 MiB); agent-written text, never interpreted. */
  readonly reply?: string | null;
  readonly completedAt: string;
};

export interface Store {
  close(): Promise<void>;
  /** Each agent's own uid:gid (synchronous: one SQLite transaction per allocation). */
  readonly agentIds: AgentIdTable;
  /** LLM usage, budget counts and the audit trail of the metering egress (synchronous: the relay asks before it forwards). */
  readonly llmUsage: LlmUsageTable;

  upsertSwarm(row: SwarmRow): Promise<void>;
  setSwarmStatus(name: string, status: SwarmStatus, at: string): Promise<void>;
  getSwarm(name: string): Promise<SwarmRow | null>;
  listSwarms(): Promise<SwarmRow[]>;
  /** Every swarm's name, status and times, by name, without reading its config (the cheap list of `GET /api/swarms`). */
  listSwarmHeads(): Promise<SwarmHead[]>;
  /**
   * Removes the swarm's events, messages, turns and object states (and, with `purge`, its overlay,
   * sessions, inbox and registry entry).
   */
  deleteSwarmData(name: string, opts: { purge: boolean }): Promise<void>;

  upsertSession(row: SessionRow): Promise<void>;
  /** Sets the state (and attention info); returns the previous state or null when no session. */
  setSessionState(
    swarm: string,
    agent: string,
    state: SessionState,
    attention: AttentionInfo | null,
    at: string,
  ): Promise<SessionState | null>;
  getSession(swarm: string, agent: string): Promise<SessionRow | null>;
  listSessions(swarm: string): Promise<SessionRow[]>;
  deleteSession(swarm: string, agent: string): Promise<void>;

  /** Appends an item unless `limit` items are already queued (its seq is assigned at dispatch). */
  enqueue(
    input: {
      swarm: string;
      agent: string;
      id: string;
      kind: ItemKind;
      from: string;
      content: string;
      now: string;
      limit: number;
    },
    along?: EventAlong<EnqueueResult>,
  ): Promise<EnqueueResult>;
  inboxSize(swarm: string, agent: string): Promise<number>;
  /** Queued items per agent of the swarm in one read (an agent with none is absent): a status of 10,000 agents. */
  inboxSizes(swarm: string): Promise<ReadonlyMap<string, number>>;
  listInbox(swarm: string, agent: string): Promise<InboxItemRow[]>;
  /** Drops every queued item of the agent (or of the whole swarm when agent is null); returns the count. */
  dropInbox(swarm: string, agent: string | null): Promise<number>;
  /**
   * One transaction: when the session is `idle` and an eligible item exists, the item leaves the
   * queue, a `running` turn is created with the next per-agent seq (so seqs grow in dispatch order,
   * which is the order inbox files are written) and the session becomes `busy`. Else null.
   */
  dispatchNext(req: DispatchRequest, along?: EventAlong<TurnRow>): Promise<TurnRow | null>;

  getTurn(id: string): Promise<TurnRow | null>;
  /** The stored full reply of a turn; null for an unknown turn, a turn without a reply, or one finished before schema v4. */
  getTurnReply(id: string): Promise<string | null>;
  markTurnDelivered(id: string): Promise<void>;
  markTurnTimedOut(id: string): Promise<boolean>;
  /**
   * Finishes a turn once: only a `running` or `timed_out` turn that is not final changes; returns
   * false when it was already finished (a duplicate completion is ignored). A timed-out turn keeps
   * status `timed_out` unless the finish is `rejected`.
   */
  finishTurn(id: string, finish: TurnFinish, along?: EventAlong<boolean>): Promise<boolean>;
  /** Turns not yet final (running, or timed out without a receipt), for recovery. */
  listOpenTurns(swarm: string): Promise<TurnRow[]>;
  listTurns(swarm: string, agent: string, limit: number): Promise<TurnRow[]>;

  appendOverlayEvent(swarm: string, op: string, payload: Readonly<Record<string, unknown>>, at: string): Promise<OverlayEventRow>;
  listOverlay(swarm: string): Promise<OverlayEventRow[]>;
  clearOverlay(swarm: string): Promise<number>;

  appendMessage(msg: Omit<MessageRow, 'id'>, along?: EventAlong<MessageRow>): Promise<MessageRow>;
  listMessages(swarm: string, limit: number): Promise<MessageRow[]>;
  /** The newest `limit` message-log entries sent by `from`, newest first. */
  listMessagesFrom(swarm: string, from: string, limit: number): Promise<MessageRow[]>;

  /** Inserts or replaces the state of one object. */
  saveObjectState(
    swarm: string,
    object: string,
    stateJson: string,
    meta: { readonly handler: string; readonly updatedAt: string },
  ): Promise<void>;
  getObjectState(swarm: string, object: string): Promise<ObjectStateRow | null>;
  deleteObjectState(swarm: string, object: string): Promise<void>;
  /** Deletes the states of the swarm's objects not named in `keep`; returns the count. */
  pruneObjectStates(swarm: string, keep: readonly string[]): Promise<number>;

  insertEvent(event: NewEvent): Promise<StoredEvent>;
  queryEvents(query: EventQuery): Promise<StoredEvent[]>;
}

export const INBOX_LIMIT = 1000;
export const MESSAGE_LOG_KEEP = 1000;
export const EVENTS_KEEP = 100_000;
