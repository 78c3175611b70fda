/**
 * The store side of the metering egress relay (docs/security.md "Network isolation and egress"): each agent's
 * LLM usage, the counts budgets are checked against, and the audit trail. Synchronous (better-sqlite3): the
 * relay asks before it forwards a byte, and every change is one transaction, so a restart or a SIGKILL neither
 * loses a committed count nor counts a call twice.
 */
import type Database from 'better-sqlite3';

/** Audit entries kept per agent; older ones are dropped (the usage totals keep counting). */
export const LLM_AUDIT_KEEP = 1000;
/** The audit trail is trimmed once every this many entries of an agent (in between it may hold a few more). */
const AUDIT_PRUNE_EVERY = 32;

export interface LlmUsageTotals {
  readonly requests: number;
  readonly refused: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export const ZERO_USAGE: LlmUsageTotals = { requests: 0, refused: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** What a budget is checked against: the calls and tokens of the scope's current window. */
export interface ScopeCounts {
  /** Epoch ms the current window began (for a budget without window: the first call ever). */
  readonly windowStart: number;
  readonly requests: number;
  readonly tokens: number;
  /** `budget_exhausted` was already reported for this window. */
  readonly exhaustedNotified: boolean;
}

/** A scope and the window a call belongs to (a later window than the stored one resets the counts). */
export interface ScopeWindow {
  readonly scope: string;
  readonly windowStart: number;
}

/** One audit entry: method, path (no query), status, timing, sizes, tokens — never a prompt, completion, header or key. */
export interface LlmRequestEntry {
  readonly id: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly duration_ms: number;
  readonly bytes_in: number;
  readonly bytes_out: number;
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
  /** How the tokens were known: `reported` by the LLM, `estimated` from the bytes, `untrusted` (charged at the cap). */
  readonly usage?: 'reported' | 'estimated' | 'untrusted';
  /** Why the egress answered itself instead of forwarding: `budget`, `rate_limit`, or `protocol` (a malformed request). */
  readonly refused_by?: 'budget' | 'rate_limit' | 'protocol';
  /** How a forwarded call failed (`upstream_closed`, `response_timeout`…). */
  readonly failure?: string;
}

export type NewLlmRequestEntry = Omit<LlmRequestEntry, 'id'>;

interface AuditRow {
  id: number;
  at: string;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number;
  bytes_in: number;
  bytes_out: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  usage: string | null;
  refused_by: string | null;
  failure: string | null;
}

function toEntry(r: AuditRow): LlmRequestEntry {
  const opt = <K extends string, V>(key: K, v: V | null): Partial<Record<K, V>> => (v === null ? {} : ({ [key]: v } as Record<K, V>));
  return {
    id: r.id,
    at: r.at,
    method: r.method,
    path: r.path,
    status: r.status,
    duration_ms: r.duration_ms,
    bytes_in: r.bytes_in,
    bytes_out: r.bytes_out,
    ...opt('prompt_tokens', r.prompt_tokens),
    ...opt('completion_tokens', r.completion_tokens),
    ...opt('total_tokens', r.total_tokens),
    ...opt('usage', r.usage as LlmRequestEntry['usage'] | null),
    ...opt('refused_by', r.refused_by as LlmRequestEntry['refused_by'] | null),
    ...opt('failure', r.failure),
  };
}

export class LlmUsageTable {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly appendsSincePrune = new Map<string, number>();

  constructor(private readonly db: Database.Database) {}

  private sql(text: string): Database.Statement {
    let s = this.statements.get(text);
    if (s === undefined) {
      s = this.db.prepare(text);
      this.statements.set(text, s);
    }
    return s;
  }

  /** An agent's totals (zeros before its first call). */
  usage(swarm: string, agent: string): LlmUsageTotals {
    const r = this.sql(
      'SELECT requests, refused, prompt_tokens, completion_tokens, total_tokens FROM llm_usage WHERE swarm = ? AND agent = ?',
    ).get(swarm, agent) as LlmUsageTotals | undefined;
    return r === undefined ? ZERO_USAGE : { ...r };
  }

  /** The sum over every agent the swarm ever had. */
  swarmUsage(swarm: string): LlmUsageTotals {
    const r = this.sql(
      `SELECT COALESCE(SUM(requests), 0) AS requests, COALESCE(SUM(refused), 0) AS refused, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
         COALESCE(SUM(completion_tokens), 0) AS completion_tokens, COALESCE(SUM(total_tokens), 0) AS total_tokens FROM llm_usage WHERE swarm = ?`,
    ).get(swarm) as LlmUsageTotals;
    return { ...r };
  }

  scope(swarm: string, scope: string): ScopeCounts | null {
    const r = this.sql(
      'SELECT window_start, requests, tokens, exhausted_notified FROM llm_budget_scopes WHERE swarm = ? AND scope = ?',
    ).get(swarm, scope) as { window_start: number; requests: number; tokens: number; exhausted_notified: number } | undefined;
    return r === undefined
      ? null
      : { windowStart: r.window_start, requests: r.requests, tokens: r.tokens, exhaustedNotified: r.exhausted_notified === 1 };
  }

  /** One admitted call: +1 request for the agent and each scope (a newer window resets the scope's counts first). */
  admit(swarm: string, agent: string, scopes: readonly ScopeWindow[]): void {
    this.db.transaction(() => {
      this.bumpUsage(swarm, agent, { requests: 1 });
      for (const s of scopes) this.bumpScope(swarm, s, 1, 0);
    })();
  }

  /** A forwarded call ended: its tokens to the agent and the scopes, and its audit entry. */
  settle(swarm: string, agent: string, scopes: readonly ScopeWindow[], entry: NewLlmRequestEntry): void {
    const tokens = {
      prompt_tokens: entry.prompt_tokens ?? 0,
      completion_tokens: entry.completion_tokens ?? 0,
      total_tokens: entry.total_tokens ?? 0,
    };
    this.db.transaction(() => {
      this.bumpUsage(swarm, agent, tokens);
      for (const s of scopes) this.bumpScope(swarm, s, 0, tokens.total_tokens);
      this.insertEntry(swarm, agent, entry);
    })();
    this.maybePrune(swarm, agent);
  }

  /**
   * A call the egress answered itself (over budget or rate, malformed): +1 refused and its audit entry. With
   * `exhausted` (a scope), marks that scope's exhaustion reported; answers true when it was not yet (report it now).
   */
  refuse(swarm: string, agent: string, entry: NewLlmRequestEntry, exhausted?: ScopeWindow): boolean {
    const first = this.db.transaction((): boolean => {
      this.bumpUsage(swarm, agent, { refused: 1 });
      this.insertEntry(swarm, agent, entry);
      if (exhausted === undefined) return false;
      this.bumpScope(swarm, exhausted, 0, 0);
      const r = this.sql(
        'UPDATE llm_budget_scopes SET exhausted_notified = 1 WHERE swarm = ? AND scope = ? AND exhausted_notified = 0',
      ).run(swarm, exhausted.scope);
      return r.changes === 1;
    })();
    this.maybePrune(swarm, agent);
    return first;
  }

  /** The scope is within its budget again (raised, or a new window): a later exhaustion is reported again. */
  rearm(swarm: string, scope: string): void {
    this.sql('UPDATE llm_budget_scopes SET exhausted_notified = 0 WHERE swarm = ? AND scope = ? AND exhausted_notified = 1').run(
      swarm,
      scope,
    );
  }

  /** Newest first; `before` pages back (entries with a smaller id). */
  listRequests(swarm: string, agent: string, limit: number, before?: number): LlmRequestEntry[] {
    const rows = (
      before === undefined
        ? this.sql('SELECT * FROM llm_requests WHERE swarm = ? AND agent = ? ORDER BY id DESC LIMIT ?').all(swarm, agent, limit)
        : this.sql('SELECT * FROM llm_requests WHERE swarm = ? AND agent = ? AND id < ? ORDER BY id DESC LIMIT ?').all(
            swarm,
            agent,
            before,
            limit,
          )
    ) as AuditRow[];
    return rows.map(toEntry);
  }

  private bumpUsage(swarm: string, agent: string, d: Partial<LlmUsageTotals>): void {
    this.sql(
      `INSERT INTO llm_usage (swarm, agent, requests, refused, prompt_tokens, completion_tokens, total_tokens) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(swarm, agent) DO UPDATE SET requests = requests + excluded.requests, refused = refused + excluded.refused,
         prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
         total_tokens = total_tokens + excluded.total_tokens`,
    ).run(swarm, agent, d.requests ?? 0, d.refused ?? 0, d.prompt_tokens ?? 0, d.completion_tokens ?? 0, d.total_tokens ?? 0);
  }

  /** Adds to the scope's counts; a window later than the stored one starts from zero (and re-arms the report). */
  private bumpScope(swarm: string, s: ScopeWindow, requests: number, tokens: number): void {
    this.sql(
      `INSERT INTO llm_budget_scopes (swarm, scope, window_start, requests, tokens, exhausted_notified) VALUES (?, ?, ?, ?, ?, 0)
         ON CONFLICT(swarm, scope) DO UPDATE SET
         requests = CASE WHEN excluded.window_start > window_start THEN excluded.requests ELSE requests + excluded.requests END,
         tokens = CASE WHEN excluded.window_start > window_start THEN excluded.tokens ELSE tokens + excluded.tokens END,
         exhausted_notified = CASE WHEN excluded.window_start > window_start THEN 0 ELSE exhausted_notified END,
         window_start = MAX(window_start, excluded.window_start)`,
    ).run(swarm, s.scope, s.windowStart, requests, tokens);
  }

  private insertEntry(swarm: string, agent: string, e: NewLlmRequestEntry): void {
    this.sql(
      `INSERT INTO llm_requests (swarm, agent, at, method, path, status, duration_ms, bytes_in, bytes_out, prompt_tokens, completion_tokens,
         total_tokens, usage, refused_by, failure) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      swarm,
      agent,
      e.at,
      e.method,
      e.path,
      e.status,
      Math.round(e.duration_ms),
      e.bytes_in,
      e.bytes_out,
      e.prompt_tokens ?? null,
      e.completion_tokens ?? null,
      e.total_tokens ?? null,
      e.usage ?? null,
      e.refused_by ?? null,
      e.failure ?? null,
    );
  }

  private maybePrune(swarm: string, agent: string): void {
    const key = `${swarm}\0${agent}`;
    const n = (this.appendsSincePrune.get(key) ?? AUDIT_PRUNE_EVERY - 1) + 1; // a restart trims on the first append
    if (n < AUDIT_PRUNE_EVERY) {
      this.appendsSincePrune.set(key, n);
      return;
    }
    this.appendsSincePrune.set(key, 0);
    this.sql(
      `DELETE FROM llm_requests WHERE swarm = ? AND agent = ? AND id <= (
         SELECT id FROM llm_requests WHERE swarm = ? AND agent = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ).run(swarm, agent, swarm, agent, LLM_AUDIT_KEEP);
  }
}
