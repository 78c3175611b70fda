/** Adding, removing and scaling agents; topology PATCH (docs/rest-api.md, all-or-nothing). */
import {
  AgentSchema,
  configToState,
  effectiveAgentCap,
  forbiddenKeysOfAgent,
  resolveWorkspace,
  type AgentConfig,
} from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import * as path from 'node:path';
import { EngineError } from '../errors/engine-error';
import type { AddAgentCommand, TopologyPatch } from '../commands/command-schemas';
import { sessionOf } from './agent-ops';
import { applyRuntimeOps, type PendingOp } from './apply-ops';
import type { EngineContext } from './engine-context';
import { launchAgent, planAgent, planAll } from './launch';
import { swarmView } from './stored-view';
import type { TopologyEntry } from '../events/pushes';

type Rec = Record<string, unknown>;

export function edgeOps(name: string, connections: readonly string[], incoming: readonly string[]): PendingOp[] {
  const edges = [...connections.map((c) => [name, c]), ...incoming.map((i) => [i, name])];
  return edges.length === 0 ? [] : [{ op: 'add_topology_edges', payload: { edges } }];
}

/** The command was parsed at the edge (name, edge lists); the agent fields go through the gate's AgentSchema here. */
export async function addAgent(ctx: EngineContext, swarm: string, cmd: AddAgentCommand): Promise<{ status: 'added'; name: string }> {
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
  const ops: PendingOp[] = [{ op: 'add_agent', payload: irAgent as unknown as Rec }, ...edgeOps(agent.name, connections, incoming)];
  const applied = await applyRuntimeOps(ctx, rt, ops);
  const effective = applied.effective.agents.find((a) => a.name === agent.name) ?? agent;
  const plan = await planAgent(rt, ctx.paths.home, effective, connections);
  await applied.commit();
  await launchAgent(rt, plan);
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

export async function removeAgent(ctx: EngineContext, swarm: string, agent: string): Promise<{ status: 'removed'; name: string }> {
  const rt = ctx.runtimes.running(swarm);
  const s = sessionOf(rt, agent);
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'remove_agent', payload: { name: agent } }]);
  await applied.commit();
  await s.stop(null);
  rt.agents.delete(agent);
  await ctx.store.dropInbox(swarm, agent);
  await ctx.store.deleteSession(swarm, agent);
  await ctx.events.emit({ type: 'agent_removed', swarm, agent, message: `Agent ${agent} removed.` });
  ctx.pushes.push(swarm, { type: 'agent_removed', payload: { name: agent } });
  return { status: 'removed', name: agent };
}

export async function scaleAgents(
  ctx: EngineContext,
  swarm: string,
  base: string,
  count: number,
): Promise<{ status: 'ok'; result: { added: string[]; removed: string[]; failed: { name: string; reason: string }[] } }> {
  const rt = ctx.runtimes.running(swarm);
  const before = new Set(rt.state.agents.map((a) => a.name));
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'scale_agent_group', payload: { base_name: base, target_count: count } }]);
  rt.scaleBases.add(base); // the instances share the base's LLM budget from their first call
  const after = new Set(applied.state.agents.map((a) => a.name));
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  // every new member planned before any workspace is made: a refused plan creates nothing
  const configs = added.flatMap((name) => applied.effective.agents.filter((a) => a.name === name));
  const plans = [...(await planAll(rt, ctx.paths.home, configs)).values()];
  await applied.commit();
  for (const name of removed) {
    await rt.agents.get(name)?.stop(null);
    rt.agents.delete(name);
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

export async function getTopology(ctx: EngineContext, swarm: string): Promise<{ topology: readonly TopologyEntry[] }> {
  const view = await swarmView(ctx, swarm);
  return { topology: view.kind === 'running' ? view.rt.topology.entries() : view.stored.topology };
}

export async function patchTopology(
  ctx: EngineContext,
  swarm: string,
  patch: TopologyPatch,
): Promise<{ status: 'ok'; added: number; removed: number }> {
  const rt = ctx.runtimes.running(swarm);
  const add = (patch.add ?? []).map(([f, t]) => [f, t] as [string, string]);
  const remove = (patch.remove ?? []).map(([f, t]) => [f, t] as [string, string]);
  const added = add.filter(([f, t], i) => !rt.topology.hasEdge(f, t) && add.findIndex(([f2, t2]) => f2 === f && t2 === t) === i).length;
  const removed = remove.filter(([f, t]) => rt.topology.hasEdge(f, t)).length;
  const ops: PendingOp[] = [];
  if (add.length > 0) ops.push({ op: 'add_topology_edges', payload: { edges: add } });
  if (remove.length > 0) ops.push({ op: 'remove_topology_edges', payload: { edges: remove } });
  const applied = await applyRuntimeOps(ctx, rt, ops);
  await applied.commit();
  return { status: 'ok', added, removed };
}
