/** The inbox and the turns of the store: enqueue, exactly-once dispatch (one transaction) and a turn's end. */
import type { DispatchRequest, EnqueueResult, EventAlong, InboxItemRow, Store, TurnFinish, TurnRow } from './store';
import type { Db, InTransaction, StatementCache } from './sqlite-file';
import type { SqliteLog } from './sqlite-log';
import { TURN_COLUMNS, toItem, toTurn, type Raw } from './sqlite-rows';

type EnqueueInput = Parameters<Store['enqueue']>[0];

export class SqliteQueue {
  private readonly inTransaction: InTransaction;

  constructor(
    db: Db,
    private readonly sql: StatementCache,
    private readonly log: SqliteLog,
  ) {
    this.inTransaction = db.transaction((work: () => unknown) => work()) as InTransaction;
  }

  async enqueue(input: EnqueueInput, along?: EventAlong<EnqueueResult>): Promise<EnqueueResult> {
    return this.inTransaction((): EnqueueResult => this.log.withEvent(this.enqueueOne(input), along));
  }

  private enqueueOne(input: EnqueueInput): EnqueueResult {
    const queued = this.countInbox(input.swarm, input.agent);
    if (queued >= input.limit) return { kind: 'full', limit: input.limit };
    // seq 0: the item's seq is assigned when it is dispatched (dispatchNext).
    this.sql
      .get('INSERT INTO inbox_items (id, swarm, agent, kind, "from", content, seq, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)')
      .run(input.id, input.swarm, input.agent, input.kind, input.from, input.content, input.now);
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

  private countInbox(swarm: string, agent: string): number {
    const r = this.sql.get('SELECT COUNT(*) AS n FROM inbox_items WHERE swarm = ? AND agent = ?').get(swarm, agent) as { n: number };
    return r.n;
  }

  /** max(last seq, floor) + 1, stored and answered by one statement (no last seq yet: 0). */
  private nextSeq(swarm: string, agent: string, floor: number): number {
    const r = this.sql
      .get(
        `INSERT INTO inbox_seq (swarm, agent, last_seq) VALUES (?, ?, MAX(0, ?) + 1)
         ON CONFLICT(swarm, agent) DO UPDATE SET last_seq = MAX(last_seq, ?) + 1 RETURNING last_seq`,
      )
      .get(swarm, agent, floor, floor) as { last_seq: number };
    return r.last_seq;
  }

  async inboxSize(swarm: string, agent: string): Promise<number> {
    return this.countInbox(swarm, agent);
  }

  async inboxSizes(swarm: string): Promise<ReadonlyMap<string, number>> {
    const rows = this.sql.get('SELECT agent, COUNT(*) AS n FROM inbox_items WHERE swarm = ? GROUP BY agent').all(swarm) as {
      agent: string;
      n: number;
    }[];
    return new Map(rows.map((r) => [r.agent, r.n]));
  }

  async listInbox(swarm: string, agent: string): Promise<InboxItemRow[]> {
    return (this.sql.get('SELECT * FROM inbox_items WHERE swarm = ? AND agent = ? ORDER BY ord').all(swarm, agent) as Raw[]).map(toItem);
  }

  async dropInbox(swarm: string, agent: string | null): Promise<number> {
    const r =
      agent === null
        ? this.sql.get('DELETE FROM inbox_items WHERE swarm = ?').run(swarm)
        : this.sql.get('DELETE FROM inbox_items WHERE swarm = ? AND agent = ?').run(swarm, agent);
    return r.changes;
  }

  async dispatchNext(req: DispatchRequest, along?: EventAlong<TurnRow>): Promise<TurnRow | null> {
    return this.inTransaction((): TurnRow | null => {
      const turn = this.dispatchOne(req);
      return turn === null ? null : this.log.withEvent(turn, along);
    });
  }

  private dispatchOne(req: DispatchRequest): TurnRow | null {
    const session = this.sql.get('SELECT state FROM sessions WHERE swarm = ? AND agent = ?').get(req.swarm, req.agent) as
      { state: string } | undefined;
    if (session?.state !== 'idle') return null;
    const kindClause = req.messagesOnly ? "AND kind = 'message'" : '';
    const r = this.sql
      .get(`SELECT * FROM inbox_items WHERE swarm = ? AND agent = ? ${kindClause} ORDER BY ord LIMIT 1`)
      .get(req.swarm, req.agent) as Raw | undefined;
    if (r === undefined) return null;
    const item = toItem(r);
    this.sql.get('DELETE FROM inbox_items WHERE id = ?').run(item.id);
    const seq = this.nextSeq(req.swarm, req.agent, req.seqFloor ?? 0);
    // the row as stored (its defaults included) comes back from the insert itself
    const turn = this.sql
      .get(
        `INSERT INTO turns (id, swarm, agent, item_id, kind, "from", content, seq, status, started_at, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?) RETURNING ${TURN_COLUMNS}`,
      )
      .get(req.turnId, req.swarm, req.agent, item.id, item.kind, item.from, item.content, seq, req.now, item.createdAt) as Raw;
    this.sql.get("UPDATE sessions SET state = 'busy', last_activity = ? WHERE swarm = ? AND agent = ?").run(req.now, req.swarm, req.agent);
    return toTurn(turn);
  }

  async getTurn(id: string): Promise<TurnRow | null> {
    const r = this.sql.get(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`).get(id) as Raw | undefined;
    return r === undefined ? null : toTurn(r);
  }

  async markTurnDelivered(id: string): Promise<void> {
    this.sql.get('UPDATE turns SET delivered = 1 WHERE id = ?').run(id);
  }

  async markTurnTimedOut(id: string): Promise<boolean> {
    const r = this.sql
      .get("UPDATE turns SET status = 'timed_out', timed_out = 1 WHERE id = ? AND status = 'running' AND final = 0")
      .run(id);
    return r.changes === 1;
  }

  async finishTurn(id: string, f: TurnFinish, along?: EventAlong<boolean>): Promise<boolean> {
    if (along === undefined) return this.finishOne(id, f);
    return this.inTransaction((): boolean => {
      const finished = this.finishOne(id, f);
      return finished ? this.log.withEvent(finished, along) : false;
    });
  }

  private finishOne(id: string, f: TurnFinish): boolean {
    const r = this.sql
      .get(
        `UPDATE turns SET final = 1,
           status = CASE WHEN timed_out = 1 AND ? <> 'rejected' AND ? <> 'cancelled' THEN 'timed_out' ELSE ? END,
           reason = ?, error = ?, reply_preview = ?, reply = ?, completed_at = ?
         WHERE id = ? AND final = 0`,
      )
      .run(f.status, f.status, f.status, f.reason ?? null, f.error ?? null, f.replyPreview ?? null, f.reply ?? null, f.completedAt, id);
    return r.changes === 1;
  }

  async getTurnReply(id: string): Promise<string | null> {
    const r = this.sql.get('SELECT reply FROM turns WHERE id = ?').get(id) as { reply: unknown } | undefined;
    return typeof r?.reply === 'string' ? r.reply : null;
  }

  async listOpenTurns(swarm: string): Promise<TurnRow[]> {
    return (this.sql.get(`SELECT ${TURN_COLUMNS} FROM turns WHERE swarm = ? AND final = 0 ORDER BY started_at`).all(swarm) as Raw[]).map(
      toTurn,
    );
  }

  async listTurns(swarm: string, agent: string, limit: number): Promise<TurnRow[]> {
    return (
      this.sql
        .get(`SELECT ${TURN_COLUMNS} FROM turns WHERE swarm = ? AND agent = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`)
        .all(swarm, agent, limit) as Raw[]
    ).map(toTurn);
  }
}
