/**
 * A database written before secrets moved out still holds them in `swarms.config`, `overlay_events.payload`
 * and `sessions.description`. At open, each such row is rewritten with references; when any was, the WAL is
 * checkpointed and the file vacuumed so the old bytes leave the free pages and the WAL too.
 */
import type Database from 'better-sqlite3';

/** Rewrites one JSON value with its secrets moved out (the store's own `stash`). */
export type Stash = (swarm: string, value: unknown) => string;

interface JsonColumn {
  readonly table: string;
  readonly column: string;
  readonly swarm: string;
}

const JSON_COLUMNS: readonly JsonColumn[] = [
  { table: 'swarms', column: 'config', swarm: 'name' },
  { table: 'overlay_events', column: 'payload', swarm: 'swarm' },
  { table: 'sessions', column: 'description', swarm: 'swarm' },
];

/** Moves plaintext secrets of older rows to the secret store; answers how many rows changed. */
export function moveLegacySecrets(db: Database.Database, stash: Stash): number {
  let changed = 0;
  db.transaction(() => {
    for (const c of JSON_COLUMNS) {
      const rows = db.prepare(`SELECT rowid AS id, ${c.swarm} AS swarm, ${c.column} AS json FROM ${c.table}`).all() as {
        id: number;
        swarm: string;
        json: string | null;
      }[];
      const update = db.prepare(`UPDATE ${c.table} SET ${c.column} = ? WHERE rowid = ?`);
      for (const r of rows) {
        if (r.json === null) continue;
        const next = stash(r.swarm, JSON.parse(r.json) as unknown);
        if (next === r.json) continue;
        update.run(next, r.id);
        changed += 1;
      }
    }
  })();
  if (changed > 0) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  return changed;
}
