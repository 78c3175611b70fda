import type { AgentConfig } from '../config/agent-schema';
import { viewBackend } from '../config/backend-schema';
import { isNetworkSupported } from '../config/network';
import type { SwarmConfig } from '../config/swarm-schema';
import type { ConfigIssue } from '../config/types';
import type { ConfigSummary, ValidateOptions } from '../config/validate-config';
import { validateConfig } from '../config/validate-config';
import { stateToConfig } from '../convert/state-to-config';
import { materialize } from '../fold/fold';
import { findUnenforceableBudget } from './budget-enforceable';
import type { IrError, OverlayEvent, SwarmState } from '../state/types';

export type GateRefusal = {
  kind: 'refused';
  error: 'validation_failed' | 'ir_validation_failed' | 'unsupported_network' | 'budget_unenforceable';
  message: string;
  issues?: Array<ConfigIssue | IrError>;
  agent?: string;
  network?: string;
  /** budget_unenforceable: where the limit comes from, and the agent's backend. */
  scope?: 'agent' | 'swarm';
  backend?: string;
};

export type GateResult =
  | {
      kind: 'ok';
      /** The config as given (paths resolved). */
      config: SwarmConfig;
      /** The IR of the config (phase desired), before the overlay. */
      seed: SwarmState;
      /** seed ⊕ overlay: what should run. */
      state: SwarmState;
      /** `state` in the config format (for the runner plan and snapshots). */
      effective: SwarmConfig;
      summary: ConfigSummary;
    }
  | GateRefusal;

export interface GateStartOptions extends ValidateOptions {
  /** The stored overlay of this swarm name, replayed with materialize (no policy). */
  readonly overlayEvents?: readonly OverlayEvent[];
}

/** The first agent whose network the network matrix refuses on its backend. */
export function findUnsupportedNetwork(agents: readonly AgentConfig[]): { agent: string; network: string } | null {
  for (const a of agents) {
    const b = viewBackend(a.backend);
    const network = a.network ?? 'open';
    if (!isNetworkSupported({ backend: b.type, runner: b.runner }, network)) return { agent: a.name, network };
  }
  return null;
}

/**
 * The start gate (docs/ir.md) without the runner plan: schema → IR → validate → overlay replay,
 * plus the network matrix and the rule that a budget needs the metering relay. Nothing here spawns; the engine runs its plan only on `ok`.
 */
export function gateStart(input: unknown, opts: GateStartOptions = {}): GateResult {
  const checked = validateConfig(input, opts);
  if (checked.kind === 'invalid') return { kind: 'refused', error: checked.error, message: checked.message, issues: checked.issues };
  const folded = materialize(checked.state, opts.overlayEvents ?? []);
  if (folded.kind === 'error') {
    const issue: IrError = { ...folded.error, seq: folded.seq };
    return { kind: 'refused', error: 'ir_validation_failed', message: 'the stored overlay does not apply to this config', issues: [issue] };
  }
  const effective = stateToConfig(folded.state);
  const bad = findUnsupportedNetwork(effective.agents);
  if (bad !== null) {
    return { kind: 'refused', error: 'unsupported_network', message: 'the backend cannot enforce this network mode', ...bad };
  }
  const unmetered = findUnenforceableBudget(effective.agents, effective.options);
  if (unmetered !== null) {
    const message =
      'an LLM budget or rate limit applies to an agent that can reach its LLM past the egress relay (use network: isolated on bwrap or docker)';
    return { kind: 'refused', error: 'budget_unenforceable', message, ...unmetered };
  }
  return { kind: 'ok', config: checked.config, seed: checked.state, state: folded.state, effective, summary: checked.summary };
}
