/** Display helpers: pure, unit-tested. */

/** `12s`, `5m`, `3h`, `2d` since `iso` (or `—`). */
export function ageOf(iso: string | null | undefined, nowMs: number): string {
  if (iso === null || iso === undefined) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.max(0, Math.round((nowMs - t) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** Agents per state, states sorted by name. */
export function countByState(agents: readonly { state: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const a of agents) counts.set(a.state, (counts.get(a.state) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The agent's `isolation` report (newer servers) as one line; any other shape as `key: value` pairs. */
export function describeIsolation(v: unknown): string {
  if (v === undefined || v === null) return '—';
  if (typeof v === 'string') return v;
  if (typeof v !== 'object') return String(v);
  const r = v as Record<string, unknown>;
  if (!('namespaces' in r) && !('network' in r)) {
    return Object.entries(r)
      .map(([k, x]) => `${k}: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`)
      .join(', ');
  }
  const parts: string[] = [];
  if (typeof r['uid'] === 'number') parts.push(`uid ${r['uid']}`);
  if (typeof r['network'] === 'string') parts.push(`net ${r['network']}`);
  if (Array.isArray(r['namespaces'])) parts.push(`ns ${r['namespaces'].length === 0 ? 'none' : r['namespaces'].join(',')}`);
  if (r['no_new_privs'] === true) parts.push('no_new_privs');
  if (typeof r['seccomp'] === 'string') parts.push(`seccomp ${r['seccomp']}`);
  if (Array.isArray(r['bypass_flags']) && r['bypass_flags'].length > 0) parts.push(`bypass ${r['bypass_flags'].join(' ')}`);
  return parts.join(' · ');
}

/** LLM usage through the metering egress (`llm_usage` on an agent or a swarm); null from an older server. */
export interface LlmUsageView {
  readonly requests: number;
  readonly refused: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** `3 calls` or `3 calls, 2 refused`; `—` when none were made or the server reports no usage. */
export function describeLlmCalls(u: LlmUsageView | null | undefined): string {
  if (u === null || u === undefined || (u.requests === 0 && u.refused === 0)) return '—';
  const calls = `${u.requests} call${u.requests === 1 ? '' : 's'}`;
  return u.refused === 0 ? calls : `${calls}, ${u.refused} refused`;
}

/** `45 (30 in / 15 out)`, thousands grouped; `—` without tokens. */
export function describeLlmTokens(u: LlmUsageView | null | undefined): string {
  if (u === null || u === undefined || u.total_tokens === 0) return '—';
  const n = (x: number): string => x.toLocaleString('en-US');
  return `${n(u.total_tokens)} (${n(u.prompt_tokens)} in / ${n(u.completion_tokens)} out)`;
}

/** `json` or `yaml` from a file name, else by the first non-blank character. */
export function detectFormat(text: string, fileName?: string): 'json' | 'yaml' {
  if (fileName !== undefined) {
    if (/\.json$/i.test(fileName)) return 'json';
    if (/\.ya?ml$/i.test(fileName)) return 'yaml';
  }
  const first = text.trimStart()[0];
  return first === '{' ? 'json' : 'yaml';
}

/** What a stuck TUI client showed (docs/clients.md "Pane mode"), from an agent's `needs_attention` or `failure`. */
export interface ClientScreenFacts {
  readonly title: string;
  readonly lines: readonly string[];
}

/** Lines of a client's screen shown (the server sends at most 20). */
const SCREEN_LINES_SHOWN = 20;

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((l): l is string => typeof l === 'string').slice(-SCREEN_LINES_SHOWN) : [];
}

/**
 * The dialog or stage a `client_prompt_blocked` agent is held by, or a failed client's last screen, with the
 * screen's last lines; null when the status carries none. Rendered as text nodes (never HTML).
 */
export function clientScreenFacts(attention: unknown, failure: unknown): ClientScreenFacts | null {
  const held = typeof attention === 'object' && attention !== null ? (attention as Record<string, unknown>) : {};
  const details =
    typeof held['details'] === 'object' && held['details'] !== null ? (held['details'] as Record<string, unknown>) : undefined;
  if (details !== undefined) {
    const dialog = typeof details['dialog'] === 'string' ? details['dialog'] : undefined;
    const stage = typeof details['stage'] === 'string' ? details['stage'] : undefined;
    const title =
      dialog !== undefined
        ? `The client shows a dialog (${dialog}): answer it in its pane (genswarms attach --write), then resume.`
        : stage === 'not_ready'
          ? 'The client never showed its ready prompt.'
          : `The client did not take the pasted turn (${stage ?? 'unknown'}).`;
    return { title, lines: stringsOf(details['last_lines']) };
  }
  const f = typeof failure === 'object' && failure !== null ? (failure as Record<string, unknown>) : {};
  const fd = typeof f['details'] === 'object' && f['details'] !== null ? (f['details'] as Record<string, unknown>) : {};
  const lines = stringsOf(fd['last_lines']);
  return lines.length === 0 ? null : { title: 'The last screen of its client:', lines };
}
