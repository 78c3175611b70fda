/**
 * Before the store touches `<home>/genswarms.db` (WAL mode rewrites the header, migrations add
 * tables), the file is read, never written, and refused unless it is absent, empty, or a genswarms database of
 * a schema this build knows. A refused file is left byte for byte as it was.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import { EngineError } from '../errors/engine-error';

/** Why an existing database file is refused (details `reason` of `store_refused`). */
export type StoreRefusal = 'not_sqlite' | 'corrupt' | 'foreign' | 'schema_newer' | 'not_regular';

/** The 16 bytes every SQLite 3 database file starts with (the header string of the SQLite database file format). */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** Tables a genswarms database has from schema version 1 on. */
const OUR_TABLES = ['schema_migrations', 'swarms', 'sessions', 'turns', 'inbox_items', 'events'];
const OUR_MIGRATION_COLUMNS = ['applied_at', 'version'];

const ADVICE = 'It was left unchanged; move it away (or point GENSWARMS_HOME at another directory) to start with an empty store.';

const SENTENCES: Readonly<Record<StoreRefusal, string>> = {
  not_sqlite: 'genswarms.db is not a SQLite database.',
  corrupt: 'genswarms.db is a damaged SQLite database (its schema cannot be read).',
  foreign: 'genswarms.db is a SQLite database of another application (it has no genswarms schema).',
  schema_newer: 'genswarms.db was written by a newer genswarms (its schema version is unknown to this build).',
  not_regular: 'genswarms.db is not a regular file.',
};

function refuse(reason: StoreRefusal, extra: Record<string, unknown> = {}): EngineError {
  return new EngineError('store_refused', `${SENTENCES[reason]} ${ADVICE}`, { reason, ...extra });
}

/** The first bytes of `file`, read through a no-follow descriptor; null when it does not exist. */
function readHead(file: string): { size: number; head: Buffer } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw refuse('not_regular');
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw refuse('not_regular');
    const head = Buffer.alloc(Math.min(st.size, SQLITE_MAGIC.length));
    const n = head.length === 0 ? 0 : fs.readSync(fd, head, 0, head.length, 0);
    return { size: st.size, head: head.subarray(0, n) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The schema facts of an existing SQLite file, read through a read-only connection. */
function readSchema(file: string): { tables: Set<string>; migrationColumns: string[]; version: number | null } {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw refuseFromSqlite(e);
  }
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    if (!tables.has('schema_migrations')) return { tables, migrationColumns: [], version: null };
    const migrationColumns = (db.prepare("SELECT name FROM pragma_table_info('schema_migrations')").all() as { name: string }[])
      .map((r) => r.name)
      .sort();
    if (migrationColumns.join(',') !== OUR_MIGRATION_COLUMNS.join(',')) return { tables, migrationColumns, version: null };
    const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: unknown };
    return { tables, migrationColumns, version: typeof row.v === 'number' ? row.v : null };
  } catch (e) {
    throw refuseFromSqlite(e);
  } finally {
    db.close();
  }
}

function refuseFromSqlite(e: unknown): EngineError {
  const code = (e as { code?: unknown }).code;
  // The magic bytes were SQLite's (checked first): a header or schema SQLite cannot read is a damaged database.
  if (code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))) return refuse('corrupt');
  throw e;
}

/**
 * Checks `file` before the store opens it for writing: absent or empty → fine (a new store); a genswarms
 * database of schema ≤ `knownVersion` → fine; anything else → EngineError `store_refused` with `reason`
 * (`not_sqlite`, `corrupt`, `foreign`, `schema_newer` with `found`/`supported`, `not_regular`).
 */
export function checkStoreFile(file: string, knownVersion: number): void {
  const head = readHead(file);
  if (head === null || head.size === 0) return;
  if (head.size < SQLITE_MAGIC.length || !head.head.equals(SQLITE_MAGIC)) throw refuse('not_sqlite');
  const schema = readSchema(file);
  // nothing in it yet (or a first open that died before its first migration): nothing to lose
  if ([...schema.tables].every((t) => t === 'schema_migrations' || t === 'sqlite_sequence') && schema.version === null) return;
  if (schema.version === null || !OUR_TABLES.every((t) => schema.tables.has(t))) throw refuse('foreign');
  if (schema.version > knownVersion) throw refuse('schema_newer', { found: schema.version, supported: knownVersion });
}
