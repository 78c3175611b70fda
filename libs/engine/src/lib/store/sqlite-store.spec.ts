import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteStore } from './sqlite-store';
import { MIGRATIONS } from './schema';
import { createDatabaseAtVersion } from './test-support/old-schema-db';

const NOW = '2025-01-01T00:00:00.000Z';

describe('SqliteStore', () => {
  let home: string;
  let store: SqliteStore;

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-store-'));
    store = SqliteStore.open(home);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  async function idleSession(agent = 'a'): Promise<void> {
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
  }

  it('lists swarm heads as of the last write: every write to swarms is seen by the next read', async () => {
    const row = { config: { name: 'x' }, baseDir: null, status: 'running' as const, startedAt: NOW, stoppedAt: null };
    const heads = async (): Promise<string[]> => (await store.listSwarmHeads()).map((h) => `${h.name}:${h.status}`);
    expect(await heads()).toEqual([]);
    await store.upsertSwarm({ ...row, name: 'b' });
    expect(await heads()).toEqual(['b:running']);
    await store.upsertSwarm({ ...row, name: 'a', config: { name: 'a' } });
    expect(await heads()).toEqual(['a:running', 'b:running']);
    await store.setSwarmStatus('b', 'stopped', NOW);
    expect(await heads()).toEqual(['a:running', 'b:stopped']);
    await store.deleteSwarmData('b', { purge: false }); // keeps the swarm's row
    expect(await heads()).toEqual(['a:running', 'b:stopped']);
    await store.deleteSwarmData('b', { purge: true });
    expect(await heads()).toEqual(['a:running']);
    // what a caller does with an answer does not change the next one
    const first = await store.listSwarmHeads();
    Object.assign(first[0] ?? {}, { status: 'error' });
    first.splice(0, 1);
    expect(await heads()).toEqual(['a:running']);
  });

  it('creates genswarms.db with mode 0600 in WAL mode and records the schema version', async () => {
    const st = fs.statSync(path.join(home, 'genswarms.db'));
    expect(st.mode & 0o777).toBe(0o600);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
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
    expect(fs.existsSync(path.join(home, 'genswarms.db-wal'))).toBe(true);
  });

  it('reopens an existing database without re-running migrations', async () => {
    await store.upsertSwarm({ name: 's', config: { name: 's' }, baseDir: null, status: 'running', startedAt: NOW, stoppedAt: null });
    await store.close();
    store = SqliteStore.open(home);
    expect((await store.getSwarm('s'))?.status).toBe('running');
  });

  it('refuses a home that is a symlink', () => {
    const link = path.join(home, 'link');
    fs.symlinkSync(home, link);
    expect(() => SqliteStore.open(link)).toThrow();
  });

  it('refuses a database path that is a symlink', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-store-'));
    fs.symlinkSync('/etc/hostname', path.join(other, 'genswarms.db'));
    expect(() => SqliteStore.open(other)).toThrow();
    fs.rmSync(other, { recursive: true, force: true });
  });

  it('counts queued items per agent of one swarm in one read, the same as per agent', async () => {
    const put = (swarm: string, agent: string, id: string) =>
      store.enqueue({ swarm, agent, id, kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    await put('s', 'a', 'q1');
    await put('s', 'a', 'q2');
    await put('s', '__proto__', 'q3');
    await put('t', 'a', 'q4');
    const sizes = await store.inboxSizes('s');
    expect([...sizes].sort()).toEqual([
      ['__proto__', 1],
      ['a', 2],
    ]);
    for (const [agent, n] of sizes) expect(await store.inboxSize('s', agent)).toBe(n);
    expect((await store.inboxSizes('none')).size).toBe(0);
  });

  it('enforces the inbox limit per agent', async () => {
    const r1 = await store.enqueue({ swarm: 's', agent: 'a', id: 'i1', kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 2 });
    const r2 = await store.enqueue({ swarm: 's', agent: 'a', id: 'i2', kind: 'message', from: 'b', content: 'y', now: NOW, limit: 2 });
    const r3 = await store.enqueue({ swarm: 's', agent: 'a', id: 'i3', kind: 'task', from: '_operator', content: 'z', now: NOW, limit: 2 });
    const other = await store.enqueue({
      swarm: 's',
      agent: 'b',
      id: 'i4',
      kind: 'task',
      from: '_operator',
      content: 'z',
      now: NOW,
      limit: 2,
    });
    expect(r1).toMatchObject({ kind: 'ok', queued: 1, item: { id: 'i1' } });
    expect(r2).toMatchObject({ kind: 'ok', queued: 2, item: { id: 'i2' } });
    expect(r3).toEqual({ kind: 'full', limit: 2 });
    expect(other).toMatchObject({ kind: 'ok', queued: 1 });
  });

  it('assigns per-agent seqs from 1 at dispatch, in dispatch order, above the floor when one is given', async () => {
    await idleSession();
    for (const [id, kind] of [
      ['i1', 'task'],
      ['i2', 'message'],
      ['i3', 'task'],
    ] as const) {
      await store.enqueue({
        swarm: 's',
        agent: 'a',
        id,
        kind,
        from: kind === 'task' ? '_operator' : 'b',
        content: id,
        now: NOW,
        limit: 10,
      });
    }
    const seqOf = async (turnId: string, messagesOnly: boolean, seqFloor?: number): Promise<[string | undefined, number | undefined]> => {
      await store.setSessionState('s', 'a', 'idle', null, NOW);
      const t = await store.dispatchNext({
        swarm: 's',
        agent: 'a',
        turnId,
        now: NOW,
        messagesOnly,
        ...(seqFloor === undefined ? {} : { seqFloor }),
      });
      return [t?.itemId, t?.seq];
    };
    expect(await seqOf('t1', true)).toEqual(['i2', 1]);
    expect(await seqOf('t2', false)).toEqual(['i1', 2]);
    expect(await seqOf('t3', false, 41)).toEqual(['i3', 42]);
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i4', kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    expect(await seqOf('t4', false, 5)).toEqual(['i4', 43]);
  });

  it('dispatchNext moves the first item into a running turn and marks the session busy, once', async () => {
    await idleSession();
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i1', kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i2', kind: 'task', from: '_operator', content: 'y', now: NOW, limit: 10 });
    const turn = await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false });
    expect(turn).toMatchObject({ id: 't1', itemId: 'i1', status: 'running', seq: 1, content: 'x' });
    expect((await store.getSession('s', 'a'))?.state).toBe('busy');
    expect(await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't2', now: NOW, messagesOnly: false })).toBeNull();
    expect((await store.listInbox('s', 'a')).map((i) => i.id)).toEqual(['i2']);
  });

  it('dispatchNext skips tasks while messagesOnly', async () => {
    await idleSession();
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i1', kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    expect(await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: true })).toBeNull();
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i2', kind: 'message', from: 'b', content: 'y', now: NOW, limit: 10 });
    expect(await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: true })).toMatchObject({
      itemId: 'i2',
    });
  });

  it('finishTurn finishes a turn only once and keeps timed_out status for a late receipt', async () => {
    await idleSession();
    await store.enqueue({ swarm: 's', agent: 'a', id: 'i1', kind: 'task', from: '_operator', content: 'x', now: NOW, limit: 10 });
    await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't1', now: NOW, messagesOnly: false });
    expect(await store.markTurnTimedOut('t1')).toBe(true);
    expect(await store.listOpenTurns('s')).toHaveLength(1);
    expect(await store.finishTurn('t1', { status: 'completed', completedAt: NOW })).toBe(true);
    expect(await store.finishTurn('t1', { status: 'completed', completedAt: NOW })).toBe(false);
    expect(await store.getTurn('t1')).toMatchObject({ status: 'timed_out', timedOut: true });
    expect(await store.listOpenTurns('s')).toHaveLength(0);
  });

  it('keeps only the newest 1000 messages per swarm', async () => {
    for (let i = 0; i < 1005; i += 1) {
      await store.appendMessage({ timestamp: NOW, swarm: 's', from: 'a', to: 'b', type: 'direct', content_preview: `m${i}`, turn: null });
    }
    await store.appendMessage({
      timestamp: NOW,
      swarm: 'other',
      from: 'a',
      to: ['b', 'c'],
      type: 'broadcast',
      content_preview: 'x',
      turn: null,
    });
    const all = await store.listMessages('s', 5000);
    expect(all).toHaveLength(1000);
    expect(all[0]?.content_preview).toBe('m1004');
    expect((await store.listMessages('other', 10))[0]?.to).toEqual(['b', 'c']);
  });

  it('numbers overlay events per swarm and clears them', async () => {
    await store.appendOverlayEvent('s', 'add_agent', { name: 'x' }, NOW);
    const e2 = await store.appendOverlayEvent('s', 'remove_agent', { name: 'x' }, NOW);
    const o1 = await store.appendOverlayEvent('o', 'set_options', {}, NOW);
    expect([e2.seq, o1.seq]).toEqual([2, 1]);
    expect((await store.listOverlay('s')).map((e) => e.op)).toEqual(['add_agent', 'remove_agent']);
    expect(await store.clearOverlay('s')).toBe(2);
    expect(await store.listOverlay('s')).toEqual([]);
  });

  it('queries events newest first, or after since_id oldest first, with filters', async () => {
    for (const [i, type] of ['a_one', 'b_two', 'a_one'].entries()) {
      await store.insertEvent({
        timestamp: NOW,
        level: 'info',
        category: 'agent',
        swarm: 's',
        agent: `x${i}`,
        event_type: type,
        message: 'm',
        metadata: { i },
      });
    }
    expect((await store.queryEvents({ limit: 10 })).map((e) => e.id)).toEqual([3, 2, 1]);
    expect((await store.queryEvents({ limit: 10, sinceId: 1 })).map((e) => e.id)).toEqual([2, 3]);
    expect((await store.queryEvents({ limit: 10, eventType: 'a_one' })).map((e) => e.id)).toEqual([3, 1]);
    expect((await store.queryEvents({ limit: 1 }))[0]?.metadata).toEqual({ i: 2 });
  });

  it('purge removes the registry entry and overlay; plain delete keeps them', async () => {
    await store.upsertSwarm({ name: 's', config: {}, baseDir: null, status: 'stopped', startedAt: NOW, stoppedAt: NOW });
    await store.appendOverlayEvent('s', 'set_options', {}, NOW);
    await store.deleteSwarmData('s', { purge: false });
    expect(await store.getSwarm('s')).not.toBeNull();
    expect(await store.listOverlay('s')).toHaveLength(1);
    await store.deleteSwarmData('s', { purge: true });
    expect(await store.getSwarm('s')).toBeNull();
    expect(await store.listOverlay('s')).toHaveLength(0);
  });

  it('saves, replaces, reads and deletes object states; prune keeps only the named objects', async () => {
    const meta = { handler: 'counter', updatedAt: NOW };
    await store.saveObjectState('s', 'c', '{"count":1}', meta);
    await store.saveObjectState('s', 'c', '{"count":2}', meta);
    await store.saveObjectState('s', 'd', '{}', { handler: 'tick', updatedAt: NOW });
    await store.saveObjectState('t', 'c', '{"count":9}', meta);
    expect(await store.getObjectState('s', 'c')).toEqual({
      swarm: 's',
      object: 'c',
      handler: 'counter',
      stateJson: '{"count":2}',
      updatedAt: NOW,
    });
    expect(await store.pruneObjectStates('s', ['c', "x' OR 1=1 --"])).toBe(1);
    expect(await store.getObjectState('s', 'd')).toBeNull();
    await store.deleteObjectState('s', 'c');
    expect(await store.getObjectState('s', 'c')).toBeNull();
    expect(await store.getObjectState('t', 'c')).not.toBeNull();
  });

  test.each([[false], [true]])("deleteSwarmData (purge %s) drops the swarm's object states only", async (purge) => {
    await store.saveObjectState('s', 'c', '1', { handler: 'counter', updatedAt: NOW });
    await store.saveObjectState('t', 'c', '2', { handler: 'counter', updatedAt: NOW });
    await store.deleteSwarmData('s', { purge });
    expect(await store.getObjectState('s', 'c')).toBeNull();
    expect((await store.getObjectState('t', 'c'))?.stateJson).toBe('2');
  });
});

describe('SqliteStore on a database of the previous schema (v2)', () => {
  let home: string;
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('opens it, migrates forward to object_states and keeps every old row', async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-store-old-'));
    const old = createDatabaseAtVersion(home, 2, NOW);
    old
      .prepare(
        "INSERT INTO swarms (name, config, base_dir, status, started_at, stopped_at) VALUES ('s', '{\"name\":\"s\"}', NULL, 'running', ?, NULL)",
      )
      .run(NOW);
    old.close();
    const store = SqliteStore.open(home);
    try {
      expect(store.schemaVersion).toBe(MIGRATIONS.length);
      expect(await store.getSwarm('s')).toMatchObject({ name: 's', status: 'running', config: { name: 's' } });
      await store.saveObjectState('s', 'c', '{"count":3}', { handler: 'counter', updatedAt: NOW });
      expect((await store.getObjectState('s', 'c'))?.stateJson).toBe('{"count":3}');
    } finally {
      await store.close();
    }
    const reopened = SqliteStore.open(home);
    expect((await reopened.getObjectState('s', 'c'))?.stateJson).toBe('{"count":3}');
    await reopened.close();
  });
});
