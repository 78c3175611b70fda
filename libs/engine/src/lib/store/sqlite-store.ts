/** The embedded store: better-sqlite3 12, WAL, `<home>/genswarms.db`, files 0600. */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MIGRATIONS } from './schema';
import { moveLegacySecrets } from './legacy-secrets';
import { AgentIdTable } from './agent-ids';
import { LlmUsageTable } from './llm-usage';
import { checkStoreFile } from './store-file-check';
import { SecretFiles } from './secret-files';
import { externalizeSecrets, resolveSecrets, type SecretPositions } from './secret-refs';
import { TURN_COLUMNS, toEvent, toItem, toMessage, toObjectState, toOverlay, toSession, toSwarm, toTurn, type Raw } from './sqlite-rows';
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
import { EVENTS_KEEP, MESSAGE_LOG_KEEP } from './store';

export const DB_FILE_NAME = 'genswarms.db';

type Db = Database.Database;

type EnqueueInput = Parameters<Store['enqueue']>[0];

/** Creates (or keeps) a regular, non-link file with mode 0600 before SQLite opens it. */
function preparePrivateFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR | fs.constants.O_NOFOLLOW, 0o600);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error('store file is not a regular file');
    fs.fchmodSync(fd, 0o600);
  } finally {
    fs.closeSync(fd);
  }
}

function chmodIfPresent(file: string): void {
  try {
    const st = fs.lstatSync(file);
    if (st.isFile()) fs.chmodSync(file, 0o600);
  } catch {
    /* expected: the file is absent (a new store), nothing to tighten */
  }
}

function migrate(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  const current = row.v ?? 0;
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
    })();
  }
  return MIGRATIONS.reduce((max, m) => Math.max(max, m.version), current);
}

/**
 * The message log is trimmed to MESSAGE_LOG_KEEP entries per swarm once every this many appends of the swarm
 * (the trim's OFFSET walks up to MESSAGE_LOG_KEEP index entries; it ran on every routed message).
 * In between the table holds up to MESSAGE_PRUNE_EVERY - 1 older entries, which no read returns
 * (`listMessages`, `listMessagesFrom` see the newest MESSAGE_LOG_KEEP only).
 */
export const MESSAGE_PRUNE_EVERY = 32;

/** Upper bound of cached statements (the SQL texts are ours; the event query has at most a few hundred shapes). */
const STATEMENT_CACHE_MAX = 512;

export class SqliteStore implements Store {
  private readonly db: Db;
  readonly file: string;
  readonly schemaVersion: number;

  /** Prepared statements by SQL text (re-preparing on every call was ~10 % of a busy server). */
  private readonly statements = new Map<string, Database.Statement>();

  /** The secrets of configs, overlay payloads and session descriptions (never in the database). */
  private readonly secrets: SecretFiles;

  private readonly secretPositions: SecretPositions;

  /** Appends per swarm since its message log was last trimmed (in memory: a restart trims on the first append). */
  private readonly appendsSincePrune = new Map<string, number>();

  /** Each agent's own uid:gid (a root server with an id range; docs/security.md "One identity per agent"). */
  readonly agentIds: AgentIdTable;

  /** LLM usage, budget counts and the audit trail of the metering egress (llm-usage.ts). */
  readonly llmUsage: LlmUsageTable;

  private constructor(db: Db, file: string, version: number, secrets: SecretFiles, where: SecretPositions) {
    this.db = db;
    this.secrets = secrets;
    this.secretPositions = where;
    this.file = file;
    this.schemaVersion = version;
    this.agentIds = new AgentIdTable(db);
    this.llmUsage = new LlmUsageTable(db);
  }

  /** The cached statement for `text`; the set is bounded (fixed SQL plus the event query's filter combinations). */
  private sql(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (stmt === undefined) {
      if (this.statements.size >= STATEMENT_CACHE_MAX) this.statements.clear();
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
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
    checkStoreFile(
      file,
      MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0),
    );
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
    this.sql(
      `INSERT INTO swarms (name, config, base_dir, status, started_at, stopped_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET config = excluded.config, base_dir = excluded.base_dir,
         status = excluded.status, started_at = excluded.started_at, stopped_at = excluded.stopped_at`,
    ).run(row.name, this.stash(row.name, row.config), row.baseDir, row.status, row.startedAt, row.stoppedAt);
  }

  async setSwarmStatus(name: string, status: SwarmStatus, at: string): Promise<void> {
    const stopped = status === 'stopped' ? at : null;
    this.sql('UPDATE swarms SET status = ?, stopped_at = ? WHERE name = ?').run(status, stopped, name);
  }

  async getSwarm(name: string): Promise<SwarmRow | null> {
    const r = this.sql('SELECT * FROM swarms WHERE name = ?').get(name) as Raw | undefined;
    return r === undefined ? null : this.swarmOf(r);
  }

  async listSwarms(): Promise<SwarmRow[]> {
    return (this.sql('SELECT * FROM swarms ORDER BY name').all() as Raw[]).map((r) => this.swarmOf(r));
  }

  async listSwarmHeads(): Promise<SwarmHead[]> {
    return (this.sql('SELECT name, status, started_at, stopped_at FROM swarms ORDER BY name').all() as Raw[]).map((r) => ({
      name: String(r['name']),
      status: r['status'] as SwarmStatus,
      startedAt: (r['started_at'] as string | null) ?? null,
      stoppedAt: (r['stopped_at'] as string | null) ?? null,
    }));
  }

  async deleteSwarmData(name: string, opts: { purge: boolean }): Promise<void> {
    this.db.transaction(() => {
      for (const table of ['events', 'messages', 'turns', 'object_states']) {
        this.sql(`DELETE FROM ${table} WHERE swarm = ?`).run(name);
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
        this.sql(`DELETE FROM ${table} WHERE ${col} = ?`).run(name);
      }
    })();
    if (opts.purge) this.secrets.purge(name);
  }

  async upsertSession(row: SessionRow): Promise<void> {
    this.sql(
      `INSERT INTO sessions (swarm, agent, state, attention_reason, attention_turn, description, workspace, started_at, last_activity)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(swarm, agent) DO UPDATE SET state = excluded.state, attention_reason = excluded.attention_reason,
         attention_turn = excluded.attention_turn, description = excluded.description, workspace = excluded.workspace,
         started_at = excluded.started_at, last_activity = excluded.last_activity`,
    ).run(
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
    return this.db.transaction((): SessionState | null => {
      const prev = this.sql('SELECT state FROM sessions WHERE swarm = ? AND agent = ?').get(swarm, agent) as
        { state: SessionState } | undefined;
      if (prev === undefined) return null;
      this.sql(
        'UPDATE sessions SET state = ?, attention_reason = ?, attention_turn = ?, last_activity = ? WHERE swarm = ? AND agent = ?',
      ).run(state, attention?.reason ?? null, attention?.turn ?? null, at, swarm, agent);
      return prev.state;
    })();
  }

  async getSession(swarm: string, agent: string): Promise<SessionRow | null> {
    const r = this.sql('SELECT * FROM sessions WHERE swarm = ? AND agent = ?').get(swarm, agent) as Raw | undefined;
    return r === undefined ? null : this.sessionOf(r);
  }

  async listSessions(swarm: string): Promise<SessionRow[]> {
    return (this.sql('SELECT * FROM sessions WHERE swarm = ? ORDER BY rowid').all(swarm) as Raw[]).map((r) => this.sessionOf(r));
  }

  async deleteSession(swarm: string, agent: string): Promise<void> {
    this.sql('DELETE FROM sessions WHERE swarm = ? AND agent = ?').run(swarm, agent);
  }

  async enqueue(input: EnqueueInput, along?: EventAlong<EnqueueResult>): Promise<EnqueueResult> {
    return this.db.transaction((): EnqueueResult => this.withEvent(this.enqueueOne(input), along))();
  }

  private enqueueOne(input: EnqueueInput): EnqueueResult {
    const queued = this.countInbox(input.swarm, input.agent);
    if (queued >= input.limit) return { kind: 'full', limit: input.limit };
    // seq 0: the item's seq is assigned when it is dispatched (dispatchNext).
    this.sql('INSERT INTO inbox_items (id, swarm, agent, kind, "from", content, seq, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)').run(
      input.id,
      input.swarm,
      input.agent,
      input.kind,
      input.from,
      input.content,
      input.now,
    );
    const item: InboxItemRow = {
      id: input.id,
      swarm: input.swarm,
      agent: input.agent,
      kind: input.kind,
      from: input.from,
      content: input.content,
      createdAt: input.now,
    };
    return { kind: 'ok', item, queued: queued + 1 };
  }

  /** Inserts the event `along` makes of `result` (inside the caller's transaction) and returns `result`. */
  private withEvent<R>(result: R, along: EventAlong<R> | undefined): R {
    if (along === undefined) return result;
    const row = along.make(result);
    along.stored = row === null ? null : this.insertEventRow(row);
    return result;
  }

  private countInbox(swarm: string, agent: string): number {
    const r = this.sql('SELECT COUNT(*) AS n FROM inbox_items WHERE swarm = ? AND agent = ?').get(swarm, agent) as { n: number };
    return r.n;
  }

  private nextSeq(swarm: string, agent: string, floor: number): number {
    const r = this.sql('SELECT last_seq FROM inbox_seq WHERE swarm = ? AND agent = ?').get(swarm, agent) as
      { last_seq: number } | undefined;
    const seq = Math.max(r?.last_seq ?? 0, floor) + 1;
    this.sql(
      'INSERT INTO inbox_seq (swarm, agent, last_seq) VALUES (?, ?, ?) ON CONFLICT(swarm, agent) DO UPDATE SET last_seq = excluded.last_seq',
    ).run(swarm, agent, seq);
    return seq;
  }

  async inboxSize(swarm: string, agent: string): Promise<number> {
    return this.countInbox(swarm, agent);
  }

  async listInbox(swarm: string, agent: string): Promise<InboxItemRow[]> {
    return (this.sql('SELECT * FROM inbox_items WHERE swarm = ? AND agent = ? ORDER BY ord').all(swarm, agent) as Raw[]).map(toItem);
  }

  async dropInbox(swarm: string, agent: string | null): Promise<number> {
    const r =
      agent === null
        ? this.sql('DELETE FROM inbox_items WHERE swarm = ?').run(swarm)
        : this.sql('DELETE FROM inbox_items WHERE swarm = ? AND agent = ?').run(swarm, agent);
    return r.changes;
  }

  async dispatchNext(req: DispatchRequest, along?: EventAlong<TurnRow>): Promise<TurnRow | null> {
    return this.db.transaction((): TurnRow | null => {
      const turn = this.dispatchOne(req);
      return turn === null ? null : this.withEvent(turn, along);
    })();
  }

  private dispatchOne(req: DispatchRequest): TurnRow | null {
    const session = this.sql('SELECT state FROM sessions WHERE swarm = ? AND agent = ?').get(req.swarm, req.agent) as
      { state: string } | undefined;
    if (session?.state !== 'idle') return null;
    const kindClause = req.messagesOnly ? "AND kind = 'message'" : '';
    const r = this.sql(`SELECT * FROM inbox_items WHERE swarm = ? AND agent = ? ${kindClause} ORDER BY ord LIMIT 1`).get(
      req.swarm,
      req.agent,
    ) as Raw | undefined;
    if (r === undefined) return null;
    const item = toItem(r);
    this.sql('DELETE FROM inbox_items WHERE id = ?').run(item.id);
    const seq = this.nextSeq(req.swarm, req.agent, req.seqFloor ?? 0);
    this.sql(
      `INSERT INTO turns (id, swarm, agent, item_id, kind, "from", content, seq, status, started_at, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
    ).run(req.turnId, req.swarm, req.agent, item.id, item.kind, item.from, item.content, seq, req.now, item.createdAt);
    this.sql("UPDATE sessions SET state = 'busy', last_activity = ? WHERE swarm = ? AND agent = ?").run(req.now, req.swarm, req.agent);
    return toTurn(this.sql(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).get(req.turnId) as Raw);
  }

  async getTurn(id: string): Promise<TurnRow | null> {
    const r = this.sql(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).get(id) as Raw | undefined;
    return r === undefined ? null : toTurn(r);
  }

  async markTurnDelivered(id: string): Promise<void> {
    this.sql('UPDATE turns SET delivered = 1 WHERE id = ?').run(id);
  }

  async markTurnTimedOut(id: string): Promise<boolean> {
    const r = this.sql("UPDATE turns SET status = 'timed_out', timed_out = 1 WHERE id = ? AND status = 'running' AND final = 0").run(id);
    return r.changes === 1;
  }

  async finishTurn(id: string, f: TurnFinish, along?: EventAlong<boolean>): Promise<boolean> {
    if (along === undefined) return this.finishOne(id, f);
    return this.db.transaction((): boolean => {
      const finished = this.finishOne(id, f);
      return finished ? this.withEvent(finished, along) : false;
    })();
  }

  private finishOne(id: string, f: TurnFinish): boolean {
    const r = this.sql(
      `UPDATE turns SET final = 1,
           status = CASE WHEN timed_out = 1 AND ? <> 'rejected' AND ? <> 'cancelled' THEN 'timed_out' ELSE ? END,
           reason = ?, error = ?, reply_preview = ?, reply = ?, completed_at = ?
         WHERE id = ? AND final = 0`,
    ).run(f.status, f.status, f.status, f.reason ?? null, f.error ?? null, f.replyPreview ?? null, f.reply ?? null, f.completedAt, id);
    return r.changes === 1;
  }

  async getTurnReply(id: string): Promise<string | null> {
    const r = this.sql('SELECT reply FROM turns WHERE id = ?').get(id) as { reply: unknown } | undefined;
    return typeof r?.reply === 'string' ? r.reply : null;
  }

  async listOpenTurns(swarm: string): Promise<TurnRow[]> {
    return (this.sql(`SELECT ${TURN_COLUMNS} FROM turns WHERE swarm = ? AND final = 0 ORDER BY started_at`).all(swarm) as Raw[]).map(
      toTurn,
    );
  }

  async listTurns(swarm: string, agent: string, limit: number): Promise<TurnRow[]> {
    return (
      this.sql(`SELECT ${TURN_COLUMNS} FROM turns WHERE swarm = ? AND agent = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`).all(
        swarm,
        agent,
        limit,
      ) as Raw[]
    ).map(toTurn);
  }

  async appendOverlayEvent(swarm: string, op: string, payload: Readonly<Record<string, unknown>>, at: string): Promise<OverlayEventRow> {
    return this.db.transaction((): OverlayEventRow => {
      const r = this.sql('SELECT MAX(seq) AS s FROM overlay_events WHERE swarm = ?').get(swarm) as { s: number | null };
      const seq = (r.s ?? 0) + 1;
      this.sql('INSERT INTO overlay_events (swarm, seq, op, payload, timestamp) VALUES (?, ?, ?, ?, ?)').run(
        swarm,
        seq,
        op,
        this.stash(swarm, payload),
        at,
      );
      return { swarm, seq, op, payload, timestamp: at };
    })();
  }

  async listOverlay(swarm: string): Promise<OverlayEventRow[]> {
    return (this.sql('SELECT * FROM overlay_events WHERE swarm = ? ORDER BY seq').all(swarm) as Raw[]).map((r) => {
      const row = toOverlay(r);
      return { ...row, payload: this.unstash(swarm, row.payload) as Record<string, unknown> };
    });
  }

  async clearOverlay(swarm: string): Promise<number> {
    return this.sql('DELETE FROM overlay_events WHERE swarm = ?').run(swarm).changes;
  }

  async appendMessage(msg: Omit<MessageRow, 'id'>, along?: EventAlong<MessageRow>): Promise<MessageRow> {
    return this.db.transaction((): MessageRow => {
      const r = this.sql(
        'INSERT INTO messages (timestamp, swarm, "from", "to", type, content_preview, turn) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(msg.timestamp, msg.swarm, msg.from, JSON.stringify(msg.to), msg.type, msg.content_preview, msg.turn);
      const id = Number(r.lastInsertRowid);
      const since = this.appendsSincePrune.get(msg.swarm);
      if (since === undefined || since + 1 >= MESSAGE_PRUNE_EVERY) {
        this.sql(
          'DELETE FROM messages WHERE swarm = ? AND id <= (SELECT id FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT 1 OFFSET ?)',
        ).run(msg.swarm, msg.swarm, MESSAGE_LOG_KEEP);
        this.appendsSincePrune.set(msg.swarm, 0);
      } else {
        this.appendsSincePrune.set(msg.swarm, since + 1);
      }
      return this.withEvent({ ...msg, id }, along);
    })();
  }

  async listMessages(swarm: string, limit: number): Promise<MessageRow[]> {
    // The log is trimmed in steps (MESSAGE_PRUNE_EVERY): reads see the newest MESSAGE_LOG_KEEP only, as if trimmed on every append.
    const n = Math.min(limit, MESSAGE_LOG_KEEP);
    return (this.sql('SELECT * FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT ?').all(swarm, n) as Raw[]).map(toMessage);
  }

  async listMessagesFrom(swarm: string, from: string, limit: number): Promise<MessageRow[]> {
    return (
      this.sql(
        `SELECT * FROM messages WHERE swarm = ? AND "from" = ? AND id >= COALESCE(
           (SELECT id FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT 1 OFFSET ?), 0) ORDER BY id DESC LIMIT ?`,
      ).all(swarm, from, swarm, MESSAGE_LOG_KEEP - 1, limit) as Raw[]
    ).map(toMessage);
  }

  async saveObjectState(
    swarm: string,
    object: string,
    stateJson: string,
    meta: { readonly handler: string; readonly updatedAt: string },
  ): Promise<void> {
    this.sql(
      `INSERT INTO object_states (swarm, object, handler, state, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(swarm, object) DO UPDATE SET handler = excluded.handler, state = excluded.state, updated_at = excluded.updated_at`,
    ).run(swarm, object, meta.handler, stateJson, meta.updatedAt);
  }

  async getObjectState(swarm: string, object: string): Promise<ObjectStateRow | null> {
    const r = this.sql('SELECT * FROM object_states WHERE swarm = ? AND object = ?').get(swarm, object) as Raw | undefined;
    return r === undefined ? null : toObjectState(r);
  }

  async deleteObjectState(swarm: string, object: string): Promise<void> {
    this.sql('DELETE FROM object_states WHERE swarm = ? AND object = ?').run(swarm, object);
  }

  async pruneObjectStates(swarm: string, keep: readonly string[]): Promise<number> {
    return this.sql('DELETE FROM object_states WHERE swarm = ? AND object NOT IN (SELECT value FROM json_each(?))').run(
      swarm,
      JSON.stringify(keep),
    ).changes;
  }

  async insertEvent(e: NewEvent): Promise<StoredEvent> {
    return this.insertEventRow(e);
  }

  private insertEventRow(e: NewEvent): StoredEvent {
    const r = this.sql(
      'INSERT INTO events (timestamp, level, category, swarm, agent, event_type, message, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(e.timestamp, e.level, e.category, e.swarm, e.agent, e.event_type, e.message, JSON.stringify(e.metadata));
    const id = Number(r.lastInsertRowid);
    if (id > EVENTS_KEEP) this.sql('DELETE FROM events WHERE id <= ?').run(id - EVENTS_KEEP);
    return { ...e, id };
  }

  async queryEvents(q: EventQuery): Promise<StoredEvent[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, value: unknown): void => {
      where.push(clause);
      args.push(value);
    };
    if (q.level !== undefined) add('level = ?', q.level);
    if (q.category !== undefined) add('category = ?', q.category);
    if (q.swarm !== undefined) add('swarm = ?', q.swarm);
    if (q.agent !== undefined) add('agent = ?', q.agent);
    if (q.eventType !== undefined) add('event_type = ?', q.eventType);
    if (q.sinceTime !== undefined) add('timestamp >= ?', q.sinceTime);
    if (q.sinceId !== undefined) add('id > ?', q.sinceId);
    const order = q.sinceId === undefined ? 'DESC' : 'ASC';
    const sql = `SELECT * FROM events ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id ${order} LIMIT ?`;
    return (this.sql(sql).all(...args, q.limit) as Raw[]).map(toEvent);
  }
}
