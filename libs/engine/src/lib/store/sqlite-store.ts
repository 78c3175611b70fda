/** The embedded store: better-sqlite3 12, WAL, `<home>/genswarms.db`, files 0600. Swarms, sessions, object states here. */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { moveLegacySecrets } from './legacy-secrets';
import { AgentIdTable } from './agent-ids';
import { LlmUsageTable } from './llm-usage';
import { checkStoreFile } from './store-file-check';
import { SecretFiles } from './secret-files';
import { externalizeSecrets, resolveSecrets, type SecretPositions } from './secret-refs';
import { toObjectState, toSession, toSwarm, type Raw } from './sqlite-rows';
import {
  chmodIfPresent,
  DB_FILE_NAME,
  migrate,
  newestSchemaVersion,
  preparePrivateFile,
  StatementCache,
  type Db,
  type InTransaction,
} from './sqlite-file';
import { SqliteLog } from './sqlite-log';
import { SqliteQueue } from './sqlite-queue';
import type {
  AttentionInfo,
  DispatchRequest,
  EnqueueResult,
  EventAlong,
  EventQuery,
  InboxItemRow,
  MessageRow,
  NewEvent,
  ObjectStateRow,
  OverlayEventRow,
  SessionRow,
  SessionState,
  Store,
  StoredEvent,
  SwarmHead,
  SwarmRow,
  SwarmStatus,
  TurnFinish,
  TurnRow,
} from './store';

export { DB_FILE_NAME } from './sqlite-file';
export { MESSAGE_PRUNE_EVERY } from './sqlite-log';

type EnqueueInput = Parameters<Store['enqueue']>[0];

export class SqliteStore implements Store {
  private readonly db: Db;
  readonly file: string;
  readonly schemaVersion: number;
  private readonly sql: StatementCache;
  /** The store's own writes in a transaction (built once, see InTransaction). */
  private readonly inTransaction: InTransaction;

  /** The secrets of configs, overlay payloads and session descriptions (never in the database). */
  private readonly secrets: SecretFiles;

  private readonly secretPositions: SecretPositions;

  /** Events, the message log and the overlay (sqlite-log.ts). */
  private readonly log: SqliteLog;

  /** Inbox items and turns (sqlite-queue.ts). */
  private readonly queue: SqliteQueue;
  /** The swarms' heads since the last write to `swarms` (listSwarmHeads); null = read them again. */
  private heads: SwarmHead[] | null = null;

  /** Each agent's own uid:gid (a root server with an id range; docs/security.md "One identity per agent"). */
  readonly agentIds: AgentIdTable;

  /** LLM usage, budget counts and the audit trail of the metering egress (llm-usage.ts). */
  readonly llmUsage: LlmUsageTable;

  private constructor(db: Db, file: string, version: number, secrets: SecretFiles, where: SecretPositions) {
    this.db = db;
    this.sql = new StatementCache(db);
    this.inTransaction = db.transaction((work: () => unknown) => work()) as InTransaction;
    this.secrets = secrets;
    this.secretPositions = where;
    this.file = file;
    this.schemaVersion = version;
    this.log = new SqliteLog(db, this.sql, { stash: (s, v) => this.stash(s, v), unstash: (s, v) => this.unstash(s, v) });
    this.queue = new SqliteQueue(db, this.sql, this.log);
    this.agentIds = new AgentIdTable(db);
    this.llmUsage = new LlmUsageTable(db);
  }

  /**
   * Opens (creating if needed) `<home>/genswarms.db`; `home` must be an existing real directory. Secrets (`where`:
   * besides the key-name rule and `config.env`) are kept in `<home>/secrets`, never in the database.
   */
  static open(home: string, where: SecretPositions = {}): SqliteStore {
    const st = fs.lstatSync(home);
    if (!st.isDirectory()) throw new Error('store home is not a real directory');
    const file = path.join(home, DB_FILE_NAME);
    // Read-only first: a corrupt, foreign or newer database is refused (store_refused) and left unchanged.
    checkStoreFile(file, newestSchemaVersion());
    preparePrivateFile(file);
    const db = new Database(file);
    // One writer, this process (docs/architecture.md, "Store"): the exclusive lock is taken by the first
    // access and held until close, so a commit takes no file locks and the WAL index lives in this process's
    // memory (no -shm file; Fcntl and -shm updates were a third of a commit's CPU). Set before WAL.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    // WAL + NORMAL: a commit is in the -wal file (the kernel's page cache) when it returns, so it survives the
    // process being killed; only a power loss or kernel crash can take the newest commits (docs/architecture.md).
    db.pragma('synchronous = NORMAL');
    const version = migrate(db);
    chmodIfPresent(`${file}-wal`);
    chmodIfPresent(`${file}-shm`);
    const store = new SqliteStore(db, file, version, new SecretFiles(home), where);
    // Resolve first: a row already holding references answers the same text (same ids) and is left alone.
    moveLegacySecrets(db, (swarm, value) => store.stash(swarm, store.unstash(swarm, value)));
    return store;
  }

  /** `value` as written to the database: every secret moved to the file store, a reference in its place. */
  private stash(swarm: string, value: unknown): string {
    return JSON.stringify(externalizeSecrets(value, { put: (v) => this.secrets.put(swarm, v) }, this.secretPositions));
  }

  /** `value` as read from the database, with its secrets back. */
  private unstash(swarm: string, value: unknown): unknown {
    return resolveSecrets(value, { get: (id) => this.secrets.get(swarm, id) }, this.secretPositions);
  }

  private swarmOf(r: Raw): SwarmRow {
    const row = toSwarm(r);
    return { ...row, config: this.unstash(row.name, row.config) };
  }

  private sessionOf(r: Raw): SessionRow {
    const row = toSession(r);
    return { ...row, description: this.unstash(row.swarm, row.description) };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async upsertSwarm(row: SwarmRow): Promise<void> {
    this.heads = null;
    this.sql
      .get(
        `INSERT INTO swarms (name, config, base_dir, status, started_at, stopped_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET config = excluded.config, base_dir = excluded.base_dir,
         status = excluded.status, started_at = excluded.started_at, stopped_at = excluded.stopped_at`,
      )
      .run(row.name, this.stash(row.name, row.config), row.baseDir, row.status, row.startedAt, row.stoppedAt);
  }

  async setSwarmStatus(name: string, status: SwarmStatus, at: string): Promise<void> {
    const stopped = status === 'stopped' ? at : null;
    this.heads = null;
    this.sql.get('UPDATE swarms SET status = ?, stopped_at = ? WHERE name = ?').run(status, stopped, name);
  }

  async getSwarm(name: string): Promise<SwarmRow | null> {
    const r = this.sql.get('SELECT * FROM swarms WHERE name = ?').get(name) as Raw | undefined;
    return r === undefined ? null : this.swarmOf(r);
  }

  async listSwarms(): Promise<SwarmRow[]> {
    return (this.sql.get('SELECT * FROM swarms ORDER BY name').all() as Raw[]).map((r) => this.swarmOf(r));
  }

  /**
   * Every swarm's name, status and times. `GET /api/swarms` reads them on every request, so they are kept
   * between writes: each write to `swarms` (upsertSwarm, setSwarmStatus, a purge) drops them before it runs,
   * and the next read sees it.
   */
  async listSwarmHeads(): Promise<SwarmHead[]> {
    this.heads ??= (this.sql.get('SELECT name, status, started_at, stopped_at FROM swarms ORDER BY name').all() as Raw[]).map((r) => ({
      name: String(r['name']),
      status: r['status'] as SwarmStatus,
      startedAt: (r['started_at'] as string | null) ?? null,
      stoppedAt: (r['stopped_at'] as string | null) ?? null,
    }));
    return this.heads.map((h) => ({ ...h }));
  }

  async deleteSwarmData(name: string, opts: { purge: boolean }): Promise<void> {
    if (opts.purge) this.heads = null;
    this.inTransaction(() => {
      for (const table of ['events', 'messages', 'turns', 'object_states']) {
        this.sql.get(`DELETE FROM ${table} WHERE swarm = ?`).run(name);
      }
      if (!opts.purge) return;
      for (const table of [
        'overlay_events',
        'sessions',
        'inbox_items',
        'inbox_seq',
        'swarms',
        'llm_usage',
        'llm_budget_scopes',
        'llm_requests',
      ]) {
        const col = table === 'swarms' ? 'name' : 'swarm';
        this.sql.get(`DELETE FROM ${table} WHERE ${col} = ?`).run(name);
      }
    });
    if (opts.purge) this.secrets.purge(name);
  }

  async upsertSession(row: SessionRow): Promise<void> {
    this.sql
      .get(
        `INSERT INTO sessions (swarm, agent, state, attention_reason, attention_turn, description, workspace, started_at, last_activity)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(swarm, agent) DO UPDATE SET state = excluded.state, attention_reason = excluded.attention_reason,
         attention_turn = excluded.attention_turn, description = excluded.description, workspace = excluded.workspace,
         started_at = excluded.started_at, last_activity = excluded.last_activity`,
      )
      .run(
        row.swarm,
        row.agent,
        row.state,
        row.needsAttention?.reason ?? null,
        row.needsAttention?.turn ?? null,
        this.stash(row.swarm, row.description ?? null),
        row.workspace,
        row.startedAt,
        row.lastActivity,
      );
  }

  async setSessionState(
    swarm: string,
    agent: string,
    state: SessionState,
    attention: AttentionInfo | null,
    at: string,
  ): Promise<SessionState | null> {
    return this.inTransaction((): SessionState | null => {
      const prev = this.sql.get('SELECT state FROM sessions WHERE swarm = ? AND agent = ?').get(swarm, agent) as
        { state: SessionState } | undefined;
      if (prev === undefined) return null;
      this.sql
        .get('UPDATE sessions SET state = ?, attention_reason = ?, attention_turn = ?, last_activity = ? WHERE swarm = ? AND agent = ?')
        .run(state, attention?.reason ?? null, attention?.turn ?? null, at, swarm, agent);
      return prev.state;
    });
  }

  async getSession(swarm: string, agent: string): Promise<SessionRow | null> {
    const r = this.sql.get('SELECT * FROM sessions WHERE swarm = ? AND agent = ?').get(swarm, agent) as Raw | undefined;
    return r === undefined ? null : this.sessionOf(r);
  }

  async listSessions(swarm: string): Promise<SessionRow[]> {
    return (this.sql.get('SELECT * FROM sessions WHERE swarm = ? ORDER BY rowid').all(swarm) as Raw[]).map((r) => this.sessionOf(r));
  }

  async deleteSession(swarm: string, agent: string): Promise<void> {
    this.sql.get('DELETE FROM sessions WHERE swarm = ? AND agent = ?').run(swarm, agent);
  }

  // ---- inbox and turns (sqlite-queue.ts) ----
  enqueue(input: EnqueueInput, along?: EventAlong<EnqueueResult>): Promise<EnqueueResult> {
    return this.queue.enqueue(input, along);
  }
  inboxSize(swarm: string, agent: string): Promise<number> {
    return this.queue.inboxSize(swarm, agent);
  }
  inboxSizes(swarm: string): Promise<ReadonlyMap<string, number>> {
    return this.queue.inboxSizes(swarm);
  }
  listInbox(swarm: string, agent: string): Promise<InboxItemRow[]> {
    return this.queue.listInbox(swarm, agent);
  }
  dropInbox(swarm: string, agent: string | null): Promise<number> {
    return this.queue.dropInbox(swarm, agent);
  }
  dispatchNext(req: DispatchRequest, along?: EventAlong<TurnRow>): Promise<TurnRow | null> {
    return this.queue.dispatchNext(req, along);
  }
  getTurn(id: string): Promise<TurnRow | null> {
    return this.queue.getTurn(id);
  }
  markTurnDelivered(id: string): Promise<void> {
    return this.queue.markTurnDelivered(id);
  }
  markTurnTimedOut(id: string): Promise<boolean> {
    return this.queue.markTurnTimedOut(id);
  }
  finishTurn(id: string, f: TurnFinish, along?: EventAlong<boolean>): Promise<boolean> {
    return this.queue.finishTurn(id, f, along);
  }
  getTurnReply(id: string): Promise<string | null> {
    return this.queue.getTurnReply(id);
  }
  listOpenTurns(swarm: string): Promise<TurnRow[]> {
    return this.queue.listOpenTurns(swarm);
  }
  listTurns(swarm: string, agent: string, limit: number): Promise<TurnRow[]> {
    return this.queue.listTurns(swarm, agent, limit);
  }

  // ---- overlay, messages, events (sqlite-log.ts) ----
  appendOverlayEvent(swarm: string, op: string, payload: Readonly<Record<string, unknown>>, at: string): Promise<OverlayEventRow> {
    return this.log.appendOverlayEvent(swarm, op, payload, at);
  }
  listOverlay(swarm: string): Promise<OverlayEventRow[]> {
    return this.log.listOverlay(swarm);
  }
  clearOverlay(swarm: string): Promise<number> {
    return this.log.clearOverlay(swarm);
  }
  appendMessage(msg: Omit<MessageRow, 'id'>, along?: EventAlong<MessageRow>): Promise<MessageRow> {
    return this.log.appendMessage(msg, along);
  }
  listMessages(swarm: string, limit: number): Promise<MessageRow[]> {
    return this.log.listMessages(swarm, limit);
  }
  listMessagesFrom(swarm: string, from: string, limit: number): Promise<MessageRow[]> {
    return this.log.listMessagesFrom(swarm, from, limit);
  }
  insertEvent(e: NewEvent): Promise<StoredEvent> {
    return this.log.insertEvent(e);
  }
  queryEvents(q: EventQuery): Promise<StoredEvent[]> {
    return this.log.queryEvents(q);
  }

  // ---- object states ----
  async saveObjectState(
    swarm: string,
    object: string,
    stateJson: string,
    meta: { readonly handler: string; readonly updatedAt: string },
  ): Promise<void> {
    this.sql
      .get(
        `INSERT INTO object_states (swarm, object, handler, state, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(swarm, object) DO UPDATE SET handler = excluded.handler, state = excluded.state, updated_at = excluded.updated_at`,
      )
      .run(swarm, object, meta.handler, stateJson, meta.updatedAt);
  }

  async getObjectState(swarm: string, object: string): Promise<ObjectStateRow | null> {
    const r = this.sql.get('SELECT * FROM object_states WHERE swarm = ? AND object = ?').get(swarm, object) as Raw | undefined;
    return r === undefined ? null : toObjectState(r);
  }

  async deleteObjectState(swarm: string, object: string): Promise<void> {
    this.sql.get('DELETE FROM object_states WHERE swarm = ? AND object = ?').run(swarm, object);
  }

  async pruneObjectStates(swarm: string, keep: readonly string[]): Promise<number> {
    return this.sql
      .get('DELETE FROM object_states WHERE swarm = ? AND object NOT IN (SELECT value FROM json_each(?))')
      .run(swarm, JSON.stringify(keep)).changes;
  }
}
