/**
 * The event that records a write is committed in the write's own transaction
 * (`EventAlong`), so a routed hop costs fewer commits — and the two are one unit: neither is stored
 * without the other. Also the store's other per-commit savings: the exclusive lock (no other connection,
 * no -shm file) and the message log trimmed in steps without any read seeing more than MESSAGE_LOG_KEEP.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MESSAGE_PRUNE_EVERY, SqliteStore } from './sqlite-store';
import { MESSAGE_LOG_KEEP, type EnqueueResult, type EventAlong, type NewEvent } from './store';

const NOW = '2025-01-01T00:00:00.000Z';

function along<R>(type: string, when: (r: R) => boolean = () => true): EventAlong<R> & { seen: R[] } {
  const seen: R[] = [];
  return {
    seen,
    stored: null,
    make: (r: R): NewEvent | null => {
      seen.push(r);
      if (!when(r)) return null;
      return { timestamp: NOW, level: 'info', category: 'agent', swarm: 's', agent: 'a', event_type: type, message: type, metadata: {} };
    },
  };
}

describe('SqliteStore: an event along a write', () => {
  let home: string;
  let store: SqliteStore;

  beforeEach(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-along-'));
    store = SqliteStore.open(home);
    await store.upsertSession({
      swarm: 's',
      agent: 'a',
      state: 'idle',
      needsAttention: null,
      description: null,
      workspace: null,
      startedAt: NOW,
      lastActivity: NOW,
    });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const types = async (): Promise<string[]> => (await store.queryEvents({ limit: 100, sinceId: 0 })).map((e) => e.event_type);
  const enqueue = (id: string, a?: EventAlong<EnqueueResult>): ReturnType<SqliteStore['enqueue']> =>
    store.enqueue({ swarm: 's', agent: 'a', id, kind: 'message', from: 'b', content: 'x', now: NOW, limit: 2 }, a);

  /**
   * The rejection's text ('' when it resolved): SQLite's error is made by the native addon, outside the test's
   * realm, where `rejects.toThrow` (an `instanceof Error` check) does not always see it as an error.
   */
  const failure = (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => '',
      (e: unknown) => String(e),
    );

  /** An event the database refuses to insert (a NOT NULL column left null), as a failing event write would be. */
  function refused<R>(): EventAlong<R> {
    const row = along<R>('refused').make;
    return { stored: null, make: (r: R) => ({ ...(row(r) as NewEvent), event_type: null as unknown as string }) };
  }

  it('is written with the write, gets the write result, and is handed back stored (with its id)', async () => {
    const queued = along<Awaited<ReturnType<SqliteStore['enqueue']>>>('message_delivered', (r) => r.kind === 'ok');
    expect(
      await store.enqueue({ swarm: 's', agent: 'a', id: 'i1', kind: 'message', from: 'b', content: 'x', now: NOW, limit: 1 }, queued),
    ).toMatchObject({
      kind: 'ok',
    });
    expect(queued.stored).toMatchObject({ event_type: 'message_delivered', id: expect.any(Number) });
    const full = along<Awaited<ReturnType<SqliteStore['enqueue']>>>('message_delivered', (r) => r.kind === 'ok');
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i2', kind: 'message', from: 'b', content: 'x', now: NOW, limit: 1 }, full);
    expect(full.seen).toEqual([{ kind: 'full', limit: 1 }]);
    expect(full.stored).toBeNull();

    const started = along<{ id: string }>('turn_started');
    const turn = await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false }, started);
    expect(started.seen).toEqual([turn]);
    const ended = along<boolean>('turn_completed');
    expect(await store.finishTurn('t1', { status: 'completed', completedAt: NOW }, ended)).toBe(true);
    expect(ended.seen).toEqual([true]);
    // a second finish changes nothing, so nothing is recorded for it
    const again = along<boolean>('turn_completed');
    expect(await store.finishTurn('t1', { status: 'completed', completedAt: NOW }, again)).toBe(false);
    expect(again.stored).toBeNull();
    const routed = along<{ id: number }>('message_routed');
    const msg = await store.appendMessage(
      { timestamp: NOW, swarm: 's', from: 'a', to: 'b', type: 'direct', content_preview: 'p', turn: 't1' },
      routed,
    );
    expect(routed.seen).toEqual([msg]);

    expect(await types()).toEqual(['message_delivered', 'turn_started', 'turn_completed', 'message_routed']);
  });

  it('finishTurn: an event that cannot be written leaves the turn open (one transaction)', async () => {
    expect(await enqueue('i1')).toMatchObject({ kind: 'ok' });
    expect(await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false })).toMatchObject({ id: 't1' });
    const bad = refused<boolean>();
    expect(bad.make(true)).toMatchObject({ event_type: null });
    expect(await failure(store.finishTurn('t1', { status: 'completed', completedAt: NOW }, bad))).toMatch(/NOT NULL/);
    expect(await store.getTurn('t1')).toMatchObject({ status: 'running', completedAt: null });
    expect(await store.finishTurn('t1', { status: 'completed', completedAt: NOW })).toBe(true);
  });

  it('dispatchNext, enqueue and appendMessage: a refused event leaves queue, session, turns and log as they were', async () => {
    await enqueue('i1');
    expect(await failure(store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false }, refused()))).toMatch(
      /NOT NULL/,
    );
    expect(await store.getTurn('t1')).toBeNull();
    expect((await store.listInbox('s', 'a')).map((i) => i.id)).toEqual(['i1']);
    expect((await store.getSession('s', 'a'))?.state).toBe('idle');

    expect(await failure(enqueue('i2', refused()))).toMatch(/NOT NULL/);
    expect((await store.listInbox('s', 'a')).map((i) => i.id)).toEqual(['i1']);

    const msg = { timestamp: NOW, swarm: 's', from: 'a', to: 'b', type: 'direct' as const, content_preview: 'p', turn: null };
    expect(await failure(store.appendMessage(msg, refused()))).toMatch(/NOT NULL/);
    expect(await store.listMessages('s', 10)).toEqual([]);
    expect(await types()).toEqual([]);
  });

  it('holds the database exclusively while open: no other connection reads it, no -shm file; released at close', async () => {
    await store.insertEvent({
      timestamp: NOW,
      level: 'info',
      category: 'system',
      swarm: null,
      agent: null,
      event_type: 'x',
      message: 'm',
      metadata: {},
    });
    const file = path.join(home, 'genswarms.db');
    expect(fs.existsSync(`${file}-shm`)).toBe(false);
    const other = new Database(file, { readonly: true, timeout: 50 });
    try {
      expect(() => other.prepare('SELECT COUNT(*) AS n FROM events').get()).toThrow(/locked|busy/i);
    } finally {
      other.close();
    }
    await store.close();
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 1 });
    after.close();
    store = SqliteStore.open(home);
  });

  it('trims the message log in steps, and no read returns more than the newest MESSAGE_LOG_KEEP', async () => {
    const append = (from: string, i: number): ReturnType<SqliteStore['appendMessage']> =>
      store.appendMessage({ timestamp: NOW, swarm: 's', from, to: 'b', type: 'direct', content_preview: `m${i}`, turn: null });
    await append('early', 0);
    for (let i = 1; i <= MESSAGE_LOG_KEEP + MESSAGE_PRUNE_EVERY / 2; i += 1) await append('a', i);
    const newest = await store.listMessages('s', 5000);
    expect(newest).toHaveLength(MESSAGE_LOG_KEEP);
    expect(newest[0]?.content_preview).toBe(`m${MESSAGE_LOG_KEEP + MESSAGE_PRUNE_EVERY / 2}`);
    // the first entry fell out of the newest MESSAGE_LOG_KEEP: its sender's history no longer has it
    expect(await store.listMessagesFrom('s', 'early', 10)).toEqual([]);
    expect(await store.listMessagesFrom('s', 'a', 1000)).toHaveLength(MESSAGE_LOG_KEEP);
    await store.close();
    const db = new Database(path.join(home, 'genswarms.db'), { readonly: true });
    const { n } = db.prepare("SELECT COUNT(*) AS n FROM messages WHERE swarm = 's'").get() as { n: number };
    db.close();
    expect(n).toBeGreaterThanOrEqual(MESSAGE_LOG_KEEP);
    expect(n).toBeLessThan(MESSAGE_LOG_KEEP + MESSAGE_PRUNE_EVERY);
    store = SqliteStore.open(home);
  });
});
