import { DEFAULT_MAX_AGENTS, MAX_AGENTS_LIMIT } from '../config/limits';
import { instanceNumber } from '../fold/scale';
import { isOpName } from '../overlay/validate-overlay';
import type { IrError, OverlayEvent, SwarmState } from '../state/types';
import { isRecord, own } from '../state/types';

/**
 * Keys that widen an agent's reach onto the host; never accepted from a dynamic mutation.
 * `skills` is one: each skill is a host path bound into the sandbox, so a mutation could name any
 * readable host file or directory (docs/security.md#10-agent-runners-and-sandboxes "Host paths entering a sandbox").
 * `workspace` is not: a mutation may name one, and the engine plans it against the operator's workspace
 * roots like a config's (docs/security.md#10-agent-runners-and-sandboxes "Workspace roots"); refusing the key would forbid what they allow.
 */
export const HOST_ESCAPE_KEYS: readonly string[] = ['extra_ro_binds', 'extra_rw_binds', 'extra_path', 'agent_binary_path', 'skills'];

export interface PolicyOptions {
  /** Server-wide cap (GENSWARMS_MAX_AGENTS_PER_SWARM); default 100. `options.max_agents` wins. */
  readonly maxAgents?: number;
}

/** `options.max_agents`, else the server cap, else 100 (docs/ir.md). */
export function effectiveAgentCap(state: SwarmState, opts: PolicyOptions = {}): number {
  const fromSwarm = isRecord(state.options) ? own(state.options, 'max_agents') : undefined;
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_AGENTS_LIMIT;
  if (valid(fromSwarm)) return fromSwarm;
  return valid(opts.maxAgents) ? opts.maxAgents : DEFAULT_MAX_AGENTS;
}

/** Host-escape keys present at the top level of `obj`. */
function escapeKeysIn(obj: unknown): string[] {
  return isRecord(obj) ? HOST_ESCAPE_KEYS.filter((k) => Object.prototype.hasOwnProperty.call(obj, k)) : [];
}

/** Host-escape keys of an add_agent payload: top level, `config`, `backend.opts` and IR `overrides` (skills); sorted, unique. */
export function forbiddenKeysOfAgent(agent: Record<string, unknown>): string[] {
  const backend = own(agent, 'backend');
  const found = [
    ...escapeKeysIn(agent),
    ...escapeKeysIn(own(agent, 'overrides')),
    ...escapeKeysIn(own(agent, 'config')),
    ...escapeKeysIn(isRecord(backend) ? own(backend, 'opts') : undefined),
  ];
  return [...new Set(found)].sort();
}

function capError(count: number, limit: number): IrError | null {
  return count <= limit ? null : { code: 'agent_cap_exceeded', count, limit };
}

function forbidden(keys: string[]): IrError | null {
  return keys.length === 0 ? null : { code: 'forbidden_config_keys', keys };
}

function scaleCap(state: SwarmState, p: Record<string, unknown>, limit: number): IrError | null {
  const base = own(p, 'base_name');
  const target = own(p, 'target_count');
  if (typeof base !== 'string' || typeof target !== 'number') return null;
  const outside = state.agents.filter((a) => a.name !== base && instanceNumber(base, a.name) === null).length;
  return capError(outside + target, limit);
}

/**
 * docs/ir.md op policy: the agent cap for add_agent (checked before keys) and scale, and the
 * host-escape keys for add_agent and update_config. Every other op passes, and so does an event whose
 * op or payload is malformed: refusing those is fold's, with their own codes. Runs before the payload
 * rules (a refusal outranks a payload error), so the payload is read as untrusted data.
 */
export function checkOpPolicy(state: SwarmState, event: OverlayEvent, opts: PolicyOptions = {}): IrError | null {
  const { op, payload: p } = event;
  if (!isOpName(op) || !isRecord(p)) return null;
  const limit = effectiveAgentCap(state, opts);
  switch (op) {
    case 'add_agent':
      return capError(state.agents.length + 1, limit) ?? forbidden(forbiddenKeysOfAgent(p));
    case 'scale_agent_group':
      return scaleCap(state, p, limit);
    case 'update_config':
      return forbidden([...new Set(escapeKeysIn(own(p, 'config')))].sort());
    case 'add_object':
    case 'remove_agent':
    case 'remove_object':
    case 'add_topology_edges':
    case 'remove_topology_edges':
    case 'bump_package':
    case 'set_options':
      return null;
  }
}
