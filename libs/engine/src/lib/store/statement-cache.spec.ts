import BetterSqlite from 'better-sqlite3';
import type Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StatementCache, type InTransaction } from './sqlite-file';
import { SqliteStore } from './sqlite-store';

// Every store call re-prepared its SQL (better-sqlite3 `prepare`, ~10 % of a busy server).
test('prepares each statement once, however often it runs', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-stmt-'));
  const store = SqliteStore.open(home);
  try {
    const db = (store as unknown as { db: Database.Database }).db;
    const prepare = jest.spyOn(db, 'prepare');
    const event = {
      timestamp: '2025-01-01T00:00:00.000Z',
      level: 'info',
      category: 'agent',
      swarm: 's',
      agent: 'a',
      event_type: 'x',
      message: 'm',
      metadata: {},
    } as const;
    for (let i = 0; i < 5; i++) {
      await store.insertEvent(event);
      await store.queryEvents({ swarm: 's', limit: 10 });
      await store.listSwarms();
    }
    expect(prepare).toHaveBeenCalledTimes(3);
    expect(await store.queryEvents({ swarm: 's', limit: 10 })).toHaveLength(5);
  } finally {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
});

// `db.transaction(fn)` builds four wrappers each call (~4.5 µs); a routed message ran five of them.
test('runs every write of a routed hop through one transaction function, built once', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-stmt-'));
  const store = SqliteStore.open(home);
  try {
    const db = (store as unknown as { db: Database.Database }).db;
    const NOW = '2025-01-01T00:00:00.000Z';
    for (const agent of ['a', 'b'])
      await store.upsertSession({
        swarm: 's',
        agent,
        state: 'idle',
        needsAttention: null,
        description: null,
        workspace: null,
        startedAt: NOW,
        lastActivity: NOW,
      });
    const transaction = jest.spyOn(db, 'transaction');
    for (let i = 0; i < 3; i++) {
      const turnId = `t${i}`;
      await store.enqueue({ swarm: 's', agent: 'b', id: `i${i}`, kind: 'message', from: 'a', content: 'x', now: NOW, limit: 10 });
      expect(await store.dispatchNext({ swarm: 's', agent: 'b', turnId, now: NOW, messagesOnly: false })).not.toBeNull();
      await store.markTurnDelivered(turnId);
      const along = { make: () => null, stored: null };
      expect(await store.finishTurn(turnId, { status: 'completed', completedAt: NOW }, along)).toBe(true);
      await store.appendMessage({ timestamp: NOW, swarm: 's', from: 'b', to: 'a', type: 'direct', content_preview: 'p', turn: turnId });
      expect(await store.setSessionState('s', 'b', 'idle', null, NOW)).toBe('busy');
    }
    expect(transaction).not.toHaveBeenCalled();
    expect((await store.listTurns('s', 'b', 10)).map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
  } finally {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test.each([
  { name: 'work that returns is committed', nested: false, fail: false, rows: 1 },
  { name: 'work that throws is rolled back and the error rethrown', nested: false, fail: true, rows: 0 },
  { name: 'inside an open transaction, a throwing work rolls back to its savepoint only', nested: true, fail: true, rows: 1 },
  { name: 'inside an open transaction, a returning work is kept', nested: true, fail: false, rows: 2 },
])('a transaction built once (InTransaction): $name', ({ nested, fail, rows }) => {
  const db = new BetterSqlite(':memory:');
  try {
    db.exec('CREATE TABLE t (x INTEGER)');
    const sql = new StatementCache(db);
    const inTransaction = db.transaction((work: () => unknown) => work()) as InTransaction;
    const insert = (): void => void sql.get('INSERT INTO t (x) VALUES (1)').run();
    const inner = (): number => {
      insert();
      if (fail) throw new Error('work failed');
      return 7;
    };
    const run = (): unknown =>
      nested
        ? inTransaction(() => {
            insert();
            try {
              return inTransaction(inner);
            } catch (e) {
              if (e instanceof Error && e.message === 'work failed') return 'caught';
              throw e;
            }
          })
        : inTransaction(inner);
    if (fail && !nested) expect(run).toThrow('work failed');
    else expect(run()).toBe(fail ? 'caught' : 7);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(rows);
    expect(db.inTransaction).toBe(false);
  } finally {
    db.close();
  }
});

// The seq was read then written, and the new turn read back after its insert: eight statements a dispatch.
test('a dispatch runs six statements: the seq and the turn row come back from their own writes', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-stmt-'));
  const store = SqliteStore.open(home);
  try {
    const NOW = '2025-01-01T00:00:00.000Z';
    const session = {
      swarm: 's',
      state: 'idle',
      needsAttention: null,
      description: null,
      workspace: null,
      startedAt: NOW,
      lastActivity: NOW,
    } as const;
    for (const agent of ['a', 'b']) await store.upsertSession({ ...session, agent });
    for (const agent of ['a', 'b'])
      await store.enqueue({ swarm: 's', agent, id: `i-${agent}`, kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    const get = jest.spyOn((store as unknown as { sql: StatementCache }).sql, 'get');
    // a first dispatch with a floor (a restart found inbox files up to 9) starts past it
    const first = await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false, seqFloor: 9 });
    expect(get).toHaveBeenCalledTimes(6);
    expect(first).toMatchObject({ id: 't1', itemId: 'i-a', seq: 10, status: 'running', delivered: false, timedOut: false });
    expect(await store.getTurn('t1')).toEqual(first);
    const plain = await store.dispatchNext({ swarm: 's', agent: 'b', turnId: 't2', now: NOW, messagesOnly: false });
    expect(plain).toMatchObject({ id: 't2', seq: 1 });
  } finally {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
});
