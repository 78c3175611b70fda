import type Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
