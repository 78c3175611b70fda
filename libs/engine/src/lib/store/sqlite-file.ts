/** Opening the store's file: a private regular file, the schema migrations, and the prepared-statement cache. */
import type Database from 'better-sqlite3';
import * as fs from 'node:fs';
import { MIGRATIONS } from './schema';

export const DB_FILE_NAME = 'genswarms.db';

export type Db = Database.Database;

/** Creates (or keeps) a regular, non-link file with mode 0600 before SQLite opens it. */
export function preparePrivateFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR | fs.constants.O_NOFOLLOW, 0o600);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error('store file is not a regular file');
    fs.fchmodSync(fd, 0o600);
  } finally {
    fs.closeSync(fd);
  }
}

export function chmodIfPresent(file: string): void {
  try {
    const st = fs.lstatSync(file);
    if (st.isFile()) fs.chmodSync(file, 0o600);
  } catch {
    /* expected: the file is absent (a new store), nothing to tighten */
  }
}

/** The newest schema version this build knows. */
export function newestSchemaVersion(): number {
  return MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
}

export function migrate(db: Db): number {
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

/** Upper bound of cached statements (the SQL texts are ours; the event query has at most a few hundred shapes). */
const STATEMENT_CACHE_MAX = 512;

/**
 * `work()` in one transaction (a savepoint inside one already open): committed when it returns, rolled back and
 * rethrown when it throws. Each store class builds its own once, as `db.transaction((work) => work())` in its own
 * file (a body here would call back into the caller's file): `db.transaction(fn)` builds four wrappers and their
 * properties each time it is called (~4.5 µs, five times a routed message).
 */
export type InTransaction = <T>(work: () => T) => T;

/** Prepared statements by SQL text (re-preparing on every call was ~10 % of a busy server's CPU). */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Db) {}

  /** The cached statement for `text`; the set is bounded (fixed SQL plus the event query's filter combinations). */
  get(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (stmt === undefined) {
      if (this.statements.size >= STATEMENT_CACHE_MAX) this.statements.clear();
      stmt = this.db.prepare(text);
      this.statements.set(text, stmt);
    }
    return stmt;
  }
}
