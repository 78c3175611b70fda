/** Adding, removing and scaling agents; topology PATCH (docs/rest-api.md, all-or-nothing). */
import {
  AgentSchema,
  configToState,
  effectiveAgentCap,
  forbiddenKeysOfAgent,
  resolveWorkspace,
  type AgentConfig,
  type Edge,
} from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import * as path from 'node:path';
import { EngineError } from '../errors/engine-error';
import type { AddAgentCommand, TopologyPatch } from '../commands/command-schemas';
import { sessionOf } from './agent-ops';
import { applyRuntimeOps, irToEngineError, type PendingOp } from './apply-ops';
import type { Ports } from './engine-context';
import type { SwarmRuntime } from './swarm-runtime';
import { launchAgent, planAgent, planAll } from './launch';
import { swarmView } from './stored-view';
import type { TopologyEntry } from '../events/pushes';

export function edgeOps(name: string, connections: readonly string[], incoming: readonly string[]): PendingOp[] {
  const edges = [...connections.map((c): Edge => [name, c]), ...incoming.map((i): Edge => [i, name])];
  return edges.length === 0 ? [] : [{ op: 'add_topology_edges', payload: { edges } }];
}

/** The command was parsed at the edge (name, edge lists); the agent fields go through the gate's AgentSchema here. */
export async function addAgent(
  ctx: Ports<'clock' | 'events' | 'limits' | 'paths' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  cmd: AddAgentCommand,
): Promise<{ status: 'added'; name: string }> {
  const rt = ctx.runtimes.running(swarm);
  const { connections = [], incoming = [], ...raw } = cmd;
  const limit = effectiveAgentCap(rt.state, { maxAgents: ctx.limits.maxAgents });
  if (rt.state.agents.length + 1 > limit)
    throw new EngineError('agent_cap_exceeded', 'The swarm agent cap would be exceeded.', { count: rt.state.agents.length + 1, limit });
  const keys = forbiddenKeysOfAgent(raw);
  if (keys.length > 0)
    throw new EngineError('forbidden_config_keys', 'Host-escape keys are not accepted from a dynamic mutation.', { keys });
  const parsed = AgentSchema.safeParse(raw);
  if (!parsed.success)
    throw new EngineError('validation_failed', 'The agent does not match the schema.', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    });
  const agent = resolveAgentPaths(parsed.data, rt.baseDir ?? ctx.paths.configDir);
  const [irAgent] = configToState({ name: swarm, agents: [agent] }).agents;
  if (irAgent === undefined) throw irToEngineError({ code: 'invalid_payload' });
  const ops: PendingOp[] = [{ op: 'add_agent', payload: irAgent }, ...edgeOps(agent.name, connections, incoming)];
  const applied = await applyRuntimeOps(ctx, rt, ops);
  const effective = applied.effective.agents.find((a) => a.name === agent.name) ?? agent;
  const release = ctx.limits.host.claim([effective]);
  try {
    const plan = await planAgent(rt, ctx.paths.home, effective, connections);
    await applied.commit();
    await launchAgent(rt, plan);
  } finally {
    release();
  }
  const spec = redactSecrets(effective);
  await ctx.events.emit({ type: 'agent_added', swarm, agent: agent.name, message: `Agent ${agent.name} added.` });
  ctx.pushes.push(swarm, { type: 'agent_added', payload: { name: agent.name, spec } });
  return { status: 'added', name: agent.name };
}

function resolveAgentPaths(a: AgentConfig, baseDir: string): AgentConfig {
  const abs = (p: string): string => (path.isAbsolute(p) ? p : path.resolve(baseDir, p));
  return {
    ...a,
    ...(a.workspace === undefined ? {} : { workspace: resolveWorkspace(a.workspace, abs) }),
    ...(a.skills === undefined ? {} : { skills: a.skills.map(abs) }),
  };
}

export async function removeAgent(
  ctx: Ports<'clock' | 'events' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  agent: string,
): Promise<{ status: 'removed'; name: string }> {
  const rt = ctx.runtimes.running(swarm);
  const s = sessionOf(rt, agent);
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'remove_agent', payload: { name: agent } }]);
  await applied.commit();
  await s.stop(null);
  rt.removeSession(agent);
  await ctx.store.dropInbox(swarm, agent);
  await ctx.store.deleteSession(swarm, agent);
  await ctx.events.emit({ type: 'agent_removed', swarm, agent, message: `Agent ${agent} removed.` });
  ctx.pushes.push(swarm, { type: 'agent_removed', payload: { name: agent } });
  return { status: 'removed', name: agent };
}

export async function scaleAgents(
  ctx: Ports<'clock' | 'events' | 'limits' | 'paths' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  base: string,
  count: number,
): Promise<{ status: 'ok'; result: { added: string[]; removed: string[]; failed: { name: string; reason: string }[] } }> {
  const rt = ctx.runtimes.running(swarm);
  const before = new Set(rt.state.agents.map((a) => a.name));
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'scale_agent_group', payload: { base_name: base, target_count: count } }]);
  rt.noteScaleBase(base); // the instances share the base's LLM budget from their first call
  const after = new Set(applied.state.agents.map((a) => a.name));
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  // every new member planned before any workspace is made: a refused plan creates nothing
  const configs = added.flatMap((name) => applied.effective.agents.filter((a) => a.name === name));
  const release = ctx.limits.host.claim(configs);
  try {
    return await launchScaled(ctx, rt, { configs, added, removed, commit: () => applied.commit() });
  } finally {
    release();
  }
}

/** The planned and launched part of a scale (scaleAgents holds the host claim of `configs` meanwhile). */
async function launchScaled(
  ctx: Ports<'events' | 'paths' | 'runtimes' | 'store'>,
  rt: SwarmRuntime,
  scaled: { configs: AgentConfig[]; added: string[]; removed: string[]; commit: () => Promise<void> },
): Promise<{ status: 'ok'; result: { added: string[]; removed: string[]; failed: { name: string; reason: string }[] } }> {
  const { configs, added, removed } = scaled;
  const swarm = rt.swarm;
  const plans = [...(await planAll(rt, ctx.paths.home, configs)).values()];
  await scaled.commit();
  for (const name of removed) {
    await rt.session(name)?.stop(null);
    rt.removeSession(name);
    await ctx.store.deleteSession(swarm, name);
    await ctx.events.emit({ type: 'agent_removed', swarm, agent: name, message: `Agent ${name} removed by scaling.` });
  }
  const failed: { name: string; reason: string }[] = [];
  for (const plan of plans) {
    const s = await launchAgent(rt, plan);
    if (s.state === 'failed') failed.push({ name: s.name, reason: 'start_failed' });
    await ctx.events.emit({ type: 'agent_added', swarm, agent: s.name, message: `Agent ${s.name} added by scaling.` });
  }
  return { status: 'ok', result: { added, removed, failed } };
}

export async function getTopology(ctx: Ports<'runtimes' | 'store'>, swarm: string): Promise<{ topology: readonly TopologyEntry[] }> {
  const view = await swarmView(ctx, swarm);
  return { topology: view.kind === 'running' ? view.rt.topology.entries() : view.stored.topology };
}

export async function patchTopology(
  ctx: Ports<'clock' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  patch: TopologyPatch,
): Promise<{ status: 'ok'; added: number; removed: number }> {
  const rt = ctx.runtimes.running(swarm);
  const add = (patch.add ?? []).map(([f, t]): Edge => [f, t]);
  const remove = (patch.remove ?? []).map(([f, t]): Edge => [f, t]);
  const added = add.filter(([f, t], i) => !rt.topology.hasEdge(f, t) && add.findIndex(([f2, t2]) => f2 === f && t2 === t) === i).length;
  const removed = remove.filter(([f, t]) => rt.topology.hasEdge(f, t)).length;
  const ops: PendingOp[] = [];
  if (add.length > 0) ops.push({ op: 'add_topology_edges', payload: { edges: add } });
  if (remove.length > 0) ops.push({ op: 'remove_topology_edges', payload: { edges: remove } });
  const applied = await applyRuntimeOps(ctx, rt, ops);
  await applied.commit();
  return { status: 'ok', added, removed };
}
