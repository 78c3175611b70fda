/** Which budgets and rate limits apply to an agent's LLM call: its group's (scale instances share their base's) and the swarm's. */
import { llmLimitsOf, parseIsoDuration, scaleGroupOf, type AgentConfig, type LlmLimits } from '@genswarms/ir-gate';
import type { ScopeCounts, ScopeWindow } from '../store/llm-usage';

/** What the meter reads of a running swarm, each time it is asked (a PATCH takes effect on the next call). */
export interface MeterHost {
  readonly swarm: string;
  agentConfig(agent: string): AgentConfig | undefined;
  /** The swarm's effective `options` (seed config ⊕ overlay). */
  swarmOptions(): unknown;
  /** Bases a `scale_agent_group` named: their instances share the base's budget. */
  readonly scaleBases: ReadonlySet<string>;
}

/** One scope's limits, resolved: the stored key, who it is for, and the limits with the window in ms. */
export interface Scope {
  /** `agent:<group>` or `swarm` (the key of its budget counts). */
  readonly key: string;
  readonly kind: 'agent' | 'swarm';
  readonly limits: LlmLimits;
  /** The budget window in ms; undefined = for life. */
  readonly windowMs: number | undefined;
}

export function scopesOf(host: MeterHost, agent: string): Scope[] {
  const group = scaleGroupOf(agent, host.scaleBases);
  const own = llmLimitsOf(host.agentConfig(agent) ?? host.agentConfig(group));
  const swarm = llmLimitsOf(host.swarmOptions());
  const windowOf = (l: LlmLimits): number | undefined =>
    l.budget?.window === undefined ? undefined : (parseIsoDuration(l.budget.window) ?? undefined);
  return [
    { key: `agent:${group}`, kind: 'agent', limits: own, windowMs: windowOf(own) },
    { key: 'swarm', kind: 'swarm', limits: swarm, windowMs: windowOf(swarm) },
  ];
}

/** The scope's window at `now` and its counts in that window (zero in a window not stored yet). */
export function windowAt(scope: Scope, stored: ScopeCounts | null, now: number): { window: ScopeWindow; requests: number; tokens: number } {
  let start = stored?.windowStart ?? now;
  if (scope.windowMs !== undefined && stored !== null && now >= stored.windowStart + scope.windowMs) {
    start = stored.windowStart + Math.floor((now - stored.windowStart) / scope.windowMs) * scope.windowMs; // fixed boundaries
  }
  const same = stored !== null && stored.windowStart === start;
  return { window: { scope: scope.key, windowStart: start }, requests: same ? stored.requests : 0, tokens: same ? stored.tokens : 0 };
}

/** Which budget limit the counts reached, if any. */
export function exhaustedLimit(scope: Scope, counts: { requests: number; tokens: number }): 'requests' | 'tokens' | null {
  const b = scope.limits.budget;
  if (b?.requests !== undefined && counts.requests >= b.requests) return 'requests';
  if (b?.tokens !== undefined && counts.tokens >= b.tokens) return 'tokens';
  return null;
}
