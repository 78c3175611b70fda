import Database from 'better-sqlite3';
import * as path from 'node:path';
import { MIGRATIONS } from '../schema';

/**
 * A `genswarms.db` in `home` as a store of schema `version` left it (migrations 1..version applied and
 * recorded), open so the caller can insert old rows; the caller closes it before opening the store.
 */
export function createDatabaseAtVersion(home: string, version: number, appliedAt: string): Database.Database {
  const db = new Database(path.join(home, 'genswarms.db'));
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, appliedAt);
  }
  return db;
}
