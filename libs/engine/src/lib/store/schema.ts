import { LLM_USAGE_MIGRATION } from './llm-usage-schema';

/** Schema migrations of the SQLite store, applied in order; `schema_migrations` records each version. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE swarms (
  name TEXT PRIMARY KEY, config TEXT NOT NULL, base_dir TEXT, status TEXT NOT NULL,
  started_at TEXT, stopped_at TEXT
);
CREATE TABLE sessions (
  swarm TEXT NOT NULL, agent TEXT NOT NULL, state TEXT NOT NULL,
  attention_reason TEXT, attention_turn TEXT, description TEXT, workspace TEXT,
  started_at TEXT, last_activity TEXT, PRIMARY KEY (swarm, agent)
);
CREATE TABLE turns (
  id TEXT PRIMARY KEY, swarm TEXT NOT NULL, agent TEXT NOT NULL, item_id TEXT NOT NULL,
  kind TEXT NOT NULL, "from" TEXT NOT NULL, content TEXT NOT NULL, seq INTEGER NOT NULL,
  status TEXT NOT NULL, reason TEXT, error TEXT, started_at TEXT NOT NULL, completed_at TEXT,
  reply_preview TEXT, timed_out INTEGER NOT NULL DEFAULT 0, delivered INTEGER NOT NULL DEFAULT 0,
  final INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX turns_by_agent ON turns (swarm, agent, started_at);
CREATE TABLE inbox_items (
  ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, swarm TEXT NOT NULL,
  agent TEXT NOT NULL, kind TEXT NOT NULL, "from" TEXT NOT NULL, content TEXT NOT NULL,
  seq INTEGER NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX inbox_by_agent ON inbox_items (swarm, agent, ord);
CREATE TABLE inbox_seq (swarm TEXT NOT NULL, agent TEXT NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (swarm, agent));
CREATE TABLE overlay_events (
  swarm TEXT NOT NULL, seq INTEGER NOT NULL, op TEXT NOT NULL, payload TEXT NOT NULL,
  timestamp TEXT NOT NULL, PRIMARY KEY (swarm, seq)
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL, swarm TEXT NOT NULL,
  "from" TEXT NOT NULL, "to" TEXT NOT NULL, type TEXT NOT NULL, content_preview TEXT NOT NULL, turn TEXT
);
CREATE INDEX messages_by_swarm ON messages (swarm, id);
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL, level TEXT NOT NULL,
  category TEXT NOT NULL, swarm TEXT, agent TEXT, event_type TEXT NOT NULL, message TEXT NOT NULL,
  metadata TEXT NOT NULL
);
CREATE INDEX events_by_swarm ON events (swarm, agent, id);
`,
  },
  {
    version: 2,
    sql: `
ALTER TABLE turns ADD COLUMN received_at TEXT;
CREATE INDEX messages_by_sender ON messages (swarm, "from", id);
`,
  },
  {
    version: 3,
    sql: `
CREATE TABLE object_states (
  swarm TEXT NOT NULL, object TEXT NOT NULL, handler TEXT NOT NULL, state TEXT NOT NULL,
  updated_at TEXT NOT NULL, PRIMARY KEY (swarm, object)
);
`,
  },
  {
    // The full reply of a finished turn (reply.md as read under the receipts rules, at most 1 MiB); null for turns stored before v4.
    version: 4,
    sql: `
ALTER TABLE turns ADD COLUMN reply TEXT;
`,
  },
  {
    // One identity per agent: the uid (= gid) a root server gave (swarm, agent); released at purge, reused only
    // when `reusable` (its directories were purged) and no process runs as it.
    version: 5,
    sql: `
CREATE TABLE agent_ids (
  uid INTEGER PRIMARY KEY, swarm TEXT NOT NULL, agent TEXT NOT NULL, assigned_at TEXT NOT NULL,
  released_at TEXT, reusable INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX agent_ids_held ON agent_ids (swarm, agent) WHERE released_at IS NULL;
`,
  },
  LLM_USAGE_MIGRATION,
];
