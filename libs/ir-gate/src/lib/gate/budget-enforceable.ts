import type { AgentConfig } from '../config/agent-schema';
import { viewBackend } from '../config/backend-schema';
import { hasLlmLimits, llmLimitsOf } from '../config/llm-limits';
import { normalizeNetwork, type NetworkPlacement } from '../config/network';

/**
 * Whether every LLM call of an agent placed so passes the metering egress relay: `network: isolated` on
 * `bwrap` or `docker` (the host forwarder), or `network: none` (no call leaves at all), or the `mock` backend
 * (it calls nothing). `open` and named networks, tmux panes and the Docker Swarm forwarder service reach the
 * LLM past the relay: a budget there would be a promise the host cannot keep.
 */
export function isBudgetEnforceable(place: NetworkPlacement, network: string): boolean {
  const n = normalizeNetwork(network);
  if (place.backend === 'mock') return true;
  if (n === 'none') return true; // where none is not enforceable, the network matrix refuses it first
  return n === 'isolated' && (place.backend === 'bwrap' || place.backend === 'docker');
}

export interface UnenforceableBudget {
  readonly agent: string;
  /** Where the limit comes from: the agent's own `budget`/`rate_limit`, or the swarm's `options`. */
  readonly scope: 'agent' | 'swarm';
  readonly backend: string;
  readonly network: string;
}

/** The first agent a budget or rate limit applies to (its own or the swarm's) that could reach its LLM past the relay. */
export function findUnenforceableBudget(agents: readonly AgentConfig[], options: unknown): UnenforceableBudget | null {
  const swarmLimited = hasLlmLimits(llmLimitsOf(options));
  for (const a of agents) {
    const own = hasLlmLimits(llmLimitsOf(a));
    if (!own && !swarmLimited) continue;
    const b = viewBackend(a.backend);
    const network = a.network ?? 'open';
    if (!isBudgetEnforceable({ backend: b.type, ...(b.runner === undefined ? {} : { runner: b.runner }) }, network)) {
      return { agent: a.name, scope: own ? 'agent' : 'swarm', backend: b.type, network };
    }
  }
  return null;
}
