/**
 * Version 6: LLM calls through the metering egress relay. `llm_usage` holds each agent's running totals,
 * `llm_budget_scopes` the counts a budget is checked against (one row per agent group and one for the swarm,
 * reset when their window rolls over), `llm_requests` the audit trail (no prompt, completion, header or key).
 */
export const LLM_USAGE_MIGRATION = {
  version: 6,
  sql: `
CREATE TABLE llm_usage (
  swarm TEXT NOT NULL, agent TEXT NOT NULL, requests INTEGER NOT NULL DEFAULT 0, refused INTEGER NOT NULL DEFAULT 0,
  prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, total_tokens INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (swarm, agent)
);
CREATE TABLE llm_budget_scopes (
  swarm TEXT NOT NULL, scope TEXT NOT NULL, window_start INTEGER NOT NULL, requests INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0, exhausted_notified INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (swarm, scope)
);
CREATE TABLE llm_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT, swarm TEXT NOT NULL, agent TEXT NOT NULL, at TEXT NOT NULL,
  method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER, duration_ms INTEGER NOT NULL,
  bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL, prompt_tokens INTEGER, completion_tokens INTEGER,
  total_tokens INTEGER, usage TEXT, refused_by TEXT, failure TEXT
);
CREATE INDEX llm_requests_by_agent ON llm_requests (swarm, agent, id);
`,
} as const; // a Migration of schema.ts (not imported: schema.ts imports this file)
