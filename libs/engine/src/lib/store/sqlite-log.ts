/** The store's append-mostly logs: events (kept EVENTS_KEEP), routed messages (MESSAGE_LOG_KEEP) and the overlay. */
import type { EventAlong, EventQuery, MessageRow, NewEvent, OverlayEventRow, StoredEvent } from './store';
import { EVENTS_KEEP, MESSAGE_LOG_KEEP } from './store';
import type { Db, InTransaction, StatementCache } from './sqlite-file';
import { toEvent, toMessage, toOverlay, type Raw } from './sqlite-rows';

/**
 * The message log is trimmed to MESSAGE_LOG_KEEP entries per swarm once every this many appends of the swarm
 * (the trim's OFFSET walks up to MESSAGE_LOG_KEEP index entries: on every routed message it was a hot spot).
 * In between the table holds up to MESSAGE_PRUNE_EVERY - 1 older entries, which no read returns
 * (`listMessages`, `listMessagesFrom` see the newest MESSAGE_LOG_KEEP only).
 */
export const MESSAGE_PRUNE_EVERY = 32;

/** How overlay payloads go to and come back from the secret file store. */
export interface SecretStash {
  stash(swarm: string, value: unknown): string;
  unstash(swarm: string, value: unknown): unknown;
}

export class SqliteLog {
  /** Appends per swarm since its message log was last trimmed (in memory: a restart trims on the first append). */
  private readonly appendsSincePrune = new Map<string, number>();

  private readonly inTransaction: InTransaction;

  constructor(
    db: Db,
    private readonly sql: StatementCache,
    private readonly secrets: SecretStash,
  ) {
    this.inTransaction = db.transaction((work: () => unknown) => work()) as InTransaction;
  }

  /** Inserts the event `along` makes of `result` (inside the caller's transaction) and returns `result`. */
  withEvent<R>(result: R, along: EventAlong<R> | undefined): R {
    if (along === undefined) return result;
    const row = along.make(result);
    along.stored = row === null ? null : this.insertEventRow(row);
    return result;
  }

  async appendOverlayEvent(swarm: string, op: string, payload: Readonly<Record<string, unknown>>, at: string): Promise<OverlayEventRow> {
    return this.inTransaction((): OverlayEventRow => {
      const r = this.sql.get('SELECT MAX(seq) AS s FROM overlay_events WHERE swarm = ?').get(swarm) as { s: number | null };
      const seq = (r.s ?? 0) + 1;
      this.sql
        .get('INSERT INTO overlay_events (swarm, seq, op, payload, timestamp) VALUES (?, ?, ?, ?, ?)')
        .run(swarm, seq, op, this.secrets.stash(swarm, payload), at);
      return { swarm, seq, op, payload, timestamp: at };
    });
  }

  async listOverlay(swarm: string): Promise<OverlayEventRow[]> {
    return (this.sql.get('SELECT * FROM overlay_events WHERE swarm = ? ORDER BY seq').all(swarm) as Raw[]).map((r) => {
      const row = toOverlay(r);
      return { ...row, payload: this.secrets.unstash(swarm, row.payload) as Record<string, unknown> };
    });
  }

  async clearOverlay(swarm: string): Promise<number> {
    return this.sql.get('DELETE FROM overlay_events WHERE swarm = ?').run(swarm).changes;
  }

  async appendMessage(msg: Omit<MessageRow, 'id'>, along?: EventAlong<MessageRow>): Promise<MessageRow> {
    return this.inTransaction((): MessageRow => {
      const r = this.sql
        .get('INSERT INTO messages (timestamp, swarm, "from", "to", type, content_preview, turn) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(msg.timestamp, msg.swarm, msg.from, JSON.stringify(msg.to), msg.type, msg.content_preview, msg.turn);
      const id = Number(r.lastInsertRowid);
      const since = this.appendsSincePrune.get(msg.swarm);
      if (since === undefined || since + 1 >= MESSAGE_PRUNE_EVERY) {
        this.sql
          .get('DELETE FROM messages WHERE swarm = ? AND id <= (SELECT id FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT 1 OFFSET ?)')
          .run(msg.swarm, msg.swarm, MESSAGE_LOG_KEEP);
        this.appendsSincePrune.set(msg.swarm, 0);
      } else {
        this.appendsSincePrune.set(msg.swarm, since + 1);
      }
      return this.withEvent({ ...msg, id }, along);
    });
  }

  async listMessages(swarm: string, limit: number): Promise<MessageRow[]> {
    // The log is trimmed in steps (MESSAGE_PRUNE_EVERY): reads see the newest MESSAGE_LOG_KEEP only, as if trimmed on every append.
    const n = Math.min(limit, MESSAGE_LOG_KEEP);
    return (this.sql.get('SELECT * FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT ?').all(swarm, n) as Raw[]).map(toMessage);
  }

  async listMessagesFrom(swarm: string, from: string, limit: number): Promise<MessageRow[]> {
    return (
      this.sql
        .get(
          `SELECT * FROM messages WHERE swarm = ? AND "from" = ? AND id >= COALESCE(
           (SELECT id FROM messages WHERE swarm = ? ORDER BY id DESC LIMIT 1 OFFSET ?), 0) ORDER BY id DESC LIMIT ?`,
        )
        .all(swarm, from, swarm, MESSAGE_LOG_KEEP - 1, limit) as Raw[]
    ).map(toMessage);
  }

  async insertEvent(e: NewEvent): Promise<StoredEvent> {
    return this.insertEventRow(e);
  }

  insertEventRow(e: NewEvent): StoredEvent {
    const r = this.sql
      .get('INSERT INTO events (timestamp, level, category, swarm, agent, event_type, message, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.timestamp, e.level, e.category, e.swarm, e.agent, e.event_type, e.message, JSON.stringify(e.metadata));
    const id = Number(r.lastInsertRowid);
    if (id > EVENTS_KEEP) this.sql.get('DELETE FROM events WHERE id <= ?').run(id - EVENTS_KEEP);
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
    return (this.sql.get(sql).all(...args, q.limit) as Raw[]).map(toEvent);
  }
}
