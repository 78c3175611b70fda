import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteStore } from './sqlite-store';
import { MIGRATIONS } from './schema';
import { createDatabaseAtVersion } from './test-support/old-schema-db';

const NOW = '2025-01-01T00:00:00.000Z';
const MIB = 1024 * 1024;

async function runningTurn(store: SqliteStore, turnId: string, item = `i-${turnId}`): Promise<void> {
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
  await store.enqueue({ swarm: 's', agent: 'a', id: item, kind: 'task', from: '_operator', content: 'do it', now: NOW, limit: 10 });
  await store.dispatchNext({ swarm: 's', agent: 'a', turnId, now: NOW, messagesOnly: false });
}

describe('SqliteStore: the full reply of a turn (schema v4)', () => {
  let home: string;
  let store: SqliteStore;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-store-reply-'));
    store = SqliteStore.open(home);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  // Agent-written text is stored and answered verbatim: never parsed, never run as SQL, never truncated to the preview.
  const HOSTILE_REPLIES: ReadonlyArray<readonly [string, string]> = [
    ['longer than the preview', 'x'.repeat(150) + ' the end'],
    ['JSON-looking', '{"status":"ok","__proto__":{"admin":true}}'],
    ['SQL-looking', "'); DROP TABLE turns; --"],
    ['NUL and control bytes', 'a\u0000b\u001b[31mc\r\n'],
    ['non-BMP and RTL', '\u{1F600}\u202Eevil'],
    ['the 1 MiB bound', 'r'.repeat(MIB)],
    ['empty', ''],
  ];

  it.each(HOSTILE_REPLIES)('keeps a %s reply verbatim beside its unchanged preview', async (_label, reply) => {
    await runningTurn(store, 't1');
    expect(await store.finishTurn('t1', { status: 'completed', replyPreview: 'preview', reply, completedAt: NOW })).toBe(true);
    expect(await store.getTurnReply('t1')).toBe(reply);
    expect((await store.getTurn('t1'))?.replyPreview).toBe('preview');
  });

  it('answers null for a turn without a reply, a running turn and an unknown id; a duplicate finish keeps the first reply', async () => {
    await runningTurn(store, 't1');
    expect(await store.getTurnReply('t1')).toBeNull();
    await store.finishTurn('t1', { status: 'completed', reply: 'first', completedAt: NOW });
    expect(await store.finishTurn('t1', { status: 'completed', reply: 'second', completedAt: NOW })).toBe(false);
    expect(await store.getTurnReply('t1')).toBe('first');
    expect(await store.getTurnReply('ghost')).toBeNull();
    await store.setSessionState('s', 'a', 'idle', null, NOW);
    await runningTurn(store, 't2');
    await store.finishTurn('t2', { status: 'error', error: 'boom', completedAt: NOW });
    expect(await store.getTurnReply('t2')).toBeNull();
  });

  it('lists turns without their replies', async () => {
    await runningTurn(store, 't1');
    await store.finishTurn('t1', { status: 'completed', reply: 'whole', completedAt: NOW });
    const [row] = await store.listTurns('s', 'a', 10);
    expect(row?.id).toBe('t1');
    expect(row).not.toHaveProperty('reply');
  });
});

describe('SqliteStore on a database of schema v3', () => {
  let home: string;
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('migrates to the current schema: the old turns answer a null reply, new turns keep theirs', async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-store-v3-'));
    const old = createDatabaseAtVersion(home, 3, NOW);
    old
      .prepare(
        `INSERT INTO turns (id, swarm, agent, item_id, kind, "from", content, seq, status, started_at, completed_at, reply_preview, final)
         VALUES ('old', 's', 'a', 'i0', 'task', '_operator', 'x', 1, 'completed', ?, ?, 'old preview', 1)`,
      )
      .run(NOW, NOW);
    old.close();
    const store = SqliteStore.open(home);
    try {
      expect(store.schemaVersion).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
      expect(await store.getTurn('old')).toMatchObject({ status: 'completed', replyPreview: 'old preview' });
      expect(await store.getTurnReply('old')).toBeNull();
      await runningTurn(store, 'new');
      await store.finishTurn('new', { status: 'completed', reply: 'new reply', completedAt: NOW });
      expect(await store.getTurnReply('new')).toBe('new reply');
    } finally {
      await store.close();
    }
  });
});
