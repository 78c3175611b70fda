/**
 * docs/rest-api.md: "A stopped swarm still in the store is known." Its reads (agents, objects, topology,
 * turns, history) come from the stored seed config ⊕ the stored overlay — what would run on a start.
 */
import { gateStart, type AgentConfig, type ObjectConfig } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { TopologyEntry } from '../events/pushes';
import { Topology } from '../routing/topology';
import type { SwarmStatus } from '../store/store';
import type { Ports } from './engine-context';
import { assertName, toOverlayEvents } from './helpers';
import type { SwarmRuntime } from './swarm-runtime';

export interface StoredSwarm {
  readonly name: string;
  readonly status: SwarmStatus;
  readonly startedAt: string | null;
  readonly agents: readonly AgentConfig[];
  readonly objects: readonly ObjectConfig[];
  readonly topology: readonly TopologyEntry[];
}

/** The running swarm, or the stored view of a known one that is not running; else 404 `swarm_not_found`. */
export type SwarmView = { readonly kind: 'running'; readonly rt: SwarmRuntime } | { readonly kind: 'stored'; readonly stored: StoredSwarm };

export async function swarmView(ctx: Ports<'runtimes' | 'store'>, swarm: string): Promise<SwarmView> {
  assertName('swarm', swarm);
  const rt = ctx.runtimes.get(swarm);
  if (rt !== undefined) return { kind: 'running', rt };
  return { kind: 'stored', stored: await storedSwarm(ctx, swarm) };
}

/** seed ⊕ overlay of a stored swarm (the seed alone when the overlay no longer applies). */
export async function storedSwarm(ctx: Ports<'store'>, swarm: string): Promise<StoredSwarm> {
  assertName('swarm', swarm);
  const row = await ctx.store.getSwarm(swarm);
  if (row === null) throw new EngineError('swarm_not_found', `No swarm named ${swarm}.`);
  const withOverlay = gateStart(row.config, { overlayEvents: toOverlayEvents(await ctx.store.listOverlay(swarm)) });
  const gate = withOverlay.kind === 'ok' ? withOverlay : gateStart(row.config);
  const base = { name: swarm, status: row.status, startedAt: row.startedAt };
  if (gate.kind !== 'ok') return { ...base, agents: [], objects: [], topology: [] };
  return {
    ...base,
    agents: gate.effective.agents,
    objects: gate.effective.objects ?? [],
    topology: new Topology(gate.state.topology).entries(),
  };
}

/** The agent's stored config, or 404 `agent_not_found`. */
export function storedAgent(stored: StoredSwarm, agent: string): AgentConfig {
  assertName('agent', agent);
  const config = stored.agents.find((a) => a.name === agent);
  if (config === undefined) throw new EngineError('agent_not_found', `No agent named ${agent}.`, { agent });
  return config;
}

/** The object's stored config, or 404 `object_not_found`. */
export function storedObject(stored: StoredSwarm, name: string): ObjectConfig {
  assertName('object', name);
  const config = stored.objects.find((o) => o.name === name);
  if (config === undefined) throw new EngineError('object_not_found', `No object named ${name}.`);
  return config;
}
