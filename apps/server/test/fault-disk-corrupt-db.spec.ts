/**
 * A corrupt or foreign `genswarms.db` refuses to start — one `store_refused` record on stderr with
 * its `reason`, exit code 3, nothing bound — and is never overwritten: the file's bytes (and its WAL, if any)
 * are the same after the attempt. Real server process (apps/server/dist/main.js), real SQLite files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOnce, freePort } from '@genswarms/tools';
import { FULL, recordFigures } from './support/fault-kit';
import type { FigureRow } from './support/fault-kit';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const SQLITE3 = '/usr/bin/sqlite3';
const EXIT_STORE_REFUSED = 3;

let base: string;
/** A genswarms database written by this build (one swarm row), copied into each case that needs one. */
let ours: string;

function sqlite(file: string, sql: string): void {
  const r = spawnSync(SQLITE3, [file, sql], { shell: false, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3 failed: ${r.stderr}`);
}

function digest(file: string): string {
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent';
}

/** Runs the server on `home` until it exits or listens; answers its exit code (null = it listened), stdout, stderr. */
function runServer(home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return freePort().then(
    (port) =>
      new Promise((done, fail) => {
        const env = {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: base,
          PORT: String(port),
          GENSWARMS_HOME: home,
          GENSWARMS_SWARM_CONFIG_DIR: base,
        };
        const proc = spawn(process.execPath, [MAIN], { cwd: base, env, shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
        proc.stdout?.on('data', (c: Buffer) => {
          stdout += c.toString('utf8');
          if (stdout.includes('listening on')) proc.kill('SIGKILL');
        });
        proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        proc.once('error', fail);
        proc.once('exit', (code) => {
          clearTimeout(timer);
          done({ code: stdout.includes('listening on') ? null : code, stdout, stderr });
        });
      }),
  );
}

type Maker = (db: string) => void;

const CASES: ReadonlyArray<readonly [string, string, Maker]> = [
  ['random bytes', 'not_sqlite', (db) => writeFileSync(db, randomBytes(64 * 1024))],
  ['a text file', 'not_sqlite', (db) => writeFileSync(db, 'hello, this is not a database\n')],
  [
    'a SQLite header over random pages',
    'corrupt',
    (db) => writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), randomBytes(8192)])),
  ],
  [
    'a genswarms database with its schema pages overwritten',
    'corrupt',
    (db) => {
      const bytes = readFileSync(ours);
      randomBytes(bytes.length - 100).copy(bytes, 100); // keep the 100-byte header, destroy every page after it
      writeFileSync(db, bytes);
    },
  ],
  [
    'another application’s SQLite database',
    'foreign',
    (db) => sqlite(db, "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO users (email) VALUES ('a@example.org');"),
  ],
  [
    'another application’s database with its own schema_migrations (Rails-like)',
    'foreign',
    (db) =>
      sqlite(
        db,
        "CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES ('20240101000000'); CREATE TABLE swarms (x);",
      ),
  ],
  [
    'a genswarms database of a newer schema version',
    'schema_newer',
    (db) => {
      copyFileSync(ours, db);
      sqlite(db, "INSERT INTO schema_migrations (version, applied_at) VALUES (99, '2030-01-01T00:00:00.000Z');");
    },
  ],
];

beforeAll(async () => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-corruptdb-')));
  chmodSync(base, 0o711);
  // One real database of this build: the server creates it, then is stopped; its WAL is folded in.
  const home = join(base, 'ours');
  mkdirSync(home, { mode: 0o700 });
  const first = await runServer(home);
  expect(first.code).toBeNull();
  ours = join(home, 'genswarms.db');
  sqlite(ours, 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;');
}, 620_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

const figures: FigureRow[] = [];
afterAll(() => recordFigures('fault-disk-corrupt-db', figures));

describe('a corrupt or foreign genswarms.db refuses to start and is never overwritten', () => {
  it.each(CASES)(
    '%s → exit 3, store_refused (%s), bytes unchanged',
    async (what, reason, make) => {
      const rounds = FULL ? 3 : 1;
      for (let round = 0; round < rounds; round++) {
        const home = join(base, `${reason}-${Math.random().toString(36).slice(2, 8)}`);
        mkdirSync(home, { mode: 0o700 });
        const db = join(home, 'genswarms.db');
        make(db);
        const before = [digest(db), digest(`${db}-wal`)];
        const run = await runServer(home);
        expect(run.stdout).not.toContain('listening on');
        expect(run.code).toBe(EXIT_STORE_REFUSED);
        const records = run.stderr
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const refused = records.find((r) => r['message'] === 'store_refused');
        expect(refused).toMatchObject({ level: 'error', code: reason });
        expect(String(refused?.['explanation'])).toMatch(/genswarms\.db .*left unchanged/);
        expect([digest(db), digest(`${db}-wal`)]).toEqual(before);
      }
      figures.push({
        target: `corrupt/foreign genswarms.db: ${what}`,
        measure: 'starts refused (exit 3), bytes unchanged',
        value: rounds,
        goal: String(rounds),
        ok: true,
      });
    },
    120_000,
  );

  it('an absent or empty database file still starts (a new store)', async () => {
    for (const empty of [false, true]) {
      const home = join(base, `fresh-${String(empty)}`);
      mkdirSync(home, { mode: 0o700 });
      if (empty) writeFileSync(join(home, 'genswarms.db'), '');
      expect((await runServer(home)).code).toBeNull();
    }
  }, 120_000);
});
