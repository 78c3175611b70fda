/**
 * One identity per agent (docs/security.md "One identity per agent"): the uid:gid pair a root server gave each
 * (swarm, agent), kept in the `agent_ids` table so a restart, a re-adoption and a recovery run the agent as the
 * same ids. A pair is held until the swarm is purged; it is then released, and handed to another agent only
 * when its old owner left nothing (its directories were all purged: `reusable`) and no process runs as it.
 */
import type Database from 'better-sqlite3';

export interface AgentIdPair {
  readonly uid: number;
  readonly gid: number;
}

/** Where new agents' ids come from: `first` is the shared traversal group, agents take `first+1..last`. */
export interface AgentIdRangeSpec {
  readonly first: number;
  readonly last: number;
}

export type AgentIdAllocation = { kind: 'ok'; ids: AgentIdPair; fresh: boolean } | { kind: 'exhausted' };

interface Row {
  uid: number;
  swarm: string;
  agent: string;
  released_at: string | null;
  reusable: number;
}

export class AgentIdTable {
  constructor(private readonly db: Database.Database) {}

  /** The pair held by (swarm, agent), or null. */
  held(swarm: string, agent: string): AgentIdPair | null {
    const r = this.db.prepare('SELECT uid FROM agent_ids WHERE swarm = ? AND agent = ? AND released_at IS NULL').get(swarm, agent) as
      { uid: number } | undefined;
    return r === undefined ? null : { uid: r.uid, gid: r.uid };
  }

  /**
   * The pair held by (swarm, agent), else a new one: the lowest id of the range never given out, else the
   * lowest released reusable id that `idle(uid)` confirms (no process runs as it). One transaction: two
   * agents never get the same id.
   */
  allocate(swarm: string, agent: string, range: AgentIdRangeSpec, at: string, idle: (uid: number) => boolean): AgentIdAllocation {
    return this.db.transaction((): AgentIdAllocation => {
      const held = this.held(swarm, agent);
      if (held !== null) return { kind: 'ok', ids: held, fresh: false };
      const top = this.db.prepare('SELECT MAX(uid) AS m FROM agent_ids WHERE uid > ? AND uid <= ?').get(range.first, range.last) as {
        m: number | null;
      };
      const next = (top.m ?? range.first) + 1;
      if (next <= range.last && this.isUnused(next)) {
        this.db
          .prepare('INSERT INTO agent_ids (uid, swarm, agent, assigned_at, released_at, reusable) VALUES (?, ?, ?, ?, NULL, 0)')
          .run(next, swarm, agent, at);
        return { kind: 'ok', ids: { uid: next, gid: next }, fresh: true };
      }
      const candidates = this.db
        .prepare('SELECT uid FROM agent_ids WHERE uid > ? AND uid <= ? AND released_at IS NOT NULL AND reusable = 1 ORDER BY uid')
        .all(range.first, range.last) as { uid: number }[];
      for (const { uid } of candidates) {
        if (!idle(uid)) continue;
        this.db
          .prepare('UPDATE agent_ids SET swarm = ?, agent = ?, assigned_at = ?, released_at = NULL, reusable = 0 WHERE uid = ?')
          .run(swarm, agent, at, uid);
        return { kind: 'ok', ids: { uid, gid: uid }, fresh: true };
      }
      return { kind: 'exhausted' };
    })();
  }

  /** The pair `allocate` would give (validate: nothing is written). */
  preview(swarm: string, agent: string, range: AgentIdRangeSpec): AgentIdPair {
    const held = this.held(swarm, agent);
    if (held !== null) return held;
    const top = this.db.prepare('SELECT MAX(uid) AS m FROM agent_ids WHERE uid > ? AND uid <= ?').get(range.first, range.last) as {
      m: number | null;
    };
    const next = Math.min((top.m ?? range.first) + 1, range.last);
    return { uid: next, gid: next };
  }

  /** Releases every pair of `swarm`; those of `reusable` agents may be given out again (their files are gone). */
  release(swarm: string, reusable: ReadonlySet<string>, at: string): void {
    const rows = this.db.prepare('SELECT * FROM agent_ids WHERE swarm = ? AND released_at IS NULL').all(swarm) as Row[];
    const update = this.db.prepare('UPDATE agent_ids SET released_at = ?, reusable = ? WHERE uid = ?');
    this.db.transaction(() => {
      for (const r of rows) update.run(at, reusable.has(r.agent) ? 1 : 0, r.uid);
    })();
  }

  private isUnused(uid: number): boolean {
    return this.db.prepare('SELECT 1 FROM agent_ids WHERE uid = ?').get(uid) === undefined;
  }
}
