/** Adding, removing and scaling agents; topology PATCH (CONTRACT §15, all-or-nothing). */
import { AgentSchema, configToState, effectiveAgentCap, forbiddenKeysOfAgent, type AgentConfig } from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import * as path from 'node:path';
import { EngineError } from '../errors/engine-error';
import { NAME_RE } from '../events/event-query';
import { sessionOf } from './agent-ops';
import { applyRuntimeOps, type PendingOp } from './apply-ops';
import type { Engine } from './engine';
import { launchAgent, planAgent } from './launch';
import { swarmView } from './stored-view';
import type { TopologyEntry } from '../events/pushes';

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function invalid(message: string, pathName: string): EngineError {
  return new EngineError('validation_failed', message, { issues: [{ path: pathName, message }] });
}

export function parseEdge(raw: unknown, where: string): [string, string] {
  const pair = Array.isArray(raw) ? raw : isRec(raw) && Object.keys(raw).every((k) => k === 'from' || k === 'to') ? [raw['from'], raw['to']] : null;
  if (pair === null || pair.length !== 2 || !pair.every((n): n is string => typeof n === 'string' && NAME_RE.test(n))) throw invalid('malformed edge', where);
  return [pair[0] as string, pair[1] as string];
}

function nameList(raw: unknown, where: string): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || !raw.every((n): n is string => typeof n === 'string' && NAME_RE.test(n))) throw invalid('expected a list of names', where);
  return raw;
}

export function edgeOps(name: string, connections: string[], incoming: string[]): PendingOp[] {
  const edges = [...connections.map((c) => [name, c]), ...incoming.map((i) => [i, name])];
  return edges.length === 0 ? [] : [{ op: 'add_topology_edges', payload: { edges } }];
}

export async function addAgent(engine: Engine, swarm: string, body: unknown): Promise<{ status: 'added'; name: string }> {
  const rt = engine.runtime(swarm);
  if (!isRec(body)) throw invalid('expected an agent object', '');
  const { connections, incoming, ...raw } = body;
  if (typeof raw['name'] !== 'string' || !NAME_RE.test(raw['name'])) throw new EngineError('invalid_name', 'Names must match ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$.');
  const limit = effectiveAgentCap(rt.state, { maxAgents: engine.maxAgents });
  if (rt.state.agents.length + 1 > limit) throw new EngineError('agent_cap_exceeded', 'The swarm agent cap would be exceeded.', { count: rt.state.agents.length + 1, limit });
  const keys = forbiddenKeysOfAgent(raw);
  if (keys.length > 0) throw new EngineError('forbidden_config_keys', 'Host-escape keys are not accepted from a dynamic mutation.', { keys });
  const parsed = AgentSchema.safeParse(raw);
  if (!parsed.success) throw new EngineError('validation_failed', 'The agent does not match the schema.', { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) });
  const agent = resolveAgentPaths(parsed.data, rt.baseDir ?? engine.opts.configDir);
  const [irAgent] = configToState({ name: swarm, agents: [agent] }).agents;
  const conns = nameList(connections, 'connections');
  const ops: PendingOp[] = [{ op: 'add_agent', payload: irAgent as unknown as Rec }, ...edgeOps(agent.name, conns, nameList(incoming, 'incoming'))];
  const applied = await applyRuntimeOps(engine, rt, ops);
  const effective = applied.effective.agents.find((a) => a.name === agent.name) ?? agent;
  const plan = await planAgent(rt, engine.opts.home, effective, conns);
  await applied.commit();
  await launchAgent(rt, plan);
  const spec = redactSecrets(effective);
  await engine.events.emit({ type: 'agent_added', swarm, agent: agent.name, message: `Agent ${agent.name} added.` });
  engine.pushes.push(swarm, { type: 'agent_added', payload: { name: agent.name, spec } });
  return { status: 'added', name: agent.name };
}

function resolveAgentPaths(a: AgentConfig, baseDir: string): AgentConfig {
  const abs = (p: string): string => (path.isAbsolute(p) ? p : path.resolve(baseDir, p));
  return { ...a, ...(a.workspace === undefined ? {} : { workspace: abs(a.workspace) }), ...(a.skills === undefined ? {} : { skills: a.skills.map(abs) }) };
}

export async function removeAgent(engine: Engine, swarm: string, agent: string): Promise<{ status: 'removed'; name: string }> {
  const rt = engine.runtime(swarm);
  const s = sessionOf(rt, agent);
  const applied = await applyRuntimeOps(engine, rt, [{ op: 'remove_agent', payload: { name: agent } }]);
  await applied.commit();
  await s.stop(null);
  rt.agents.delete(agent);
  await engine.store.dropInbox(swarm, agent);
  await engine.store.deleteSession(swarm, agent);
  await engine.events.emit({ type: 'agent_removed', swarm, agent, message: `Agent ${agent} removed.` });
  engine.pushes.push(swarm, { type: 'agent_removed', payload: { name: agent } });
  return { status: 'removed', name: agent };
}

export async function scaleAgents(engine: Engine, swarm: string, base: string, count: unknown): Promise<{ status: 'ok'; result: { added: string[]; removed: string[]; failed: { name: string; reason: string }[] } }> {
  const rt = engine.runtime(swarm);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new EngineError('invalid_count', 'count must be an integer >= 0.');
  const before = new Set(rt.state.agents.map((a) => a.name));
  const applied = await applyRuntimeOps(engine, rt, [{ op: 'scale_agent_group', payload: { base_name: base, target_count: count } }]);
  const after = new Set(applied.state.agents.map((a) => a.name));
  const added = [...after].filter((n) => !before.has(n));
  const removed = [...before].filter((n) => !after.has(n));
  const plans = [];
  for (const name of added) {
    const cfg = applied.effective.agents.find((a) => a.name === name);
    if (cfg !== undefined) plans.push(await planAgent(rt, engine.opts.home, cfg));
  }
  await applied.commit();
  for (const name of removed) {
    await rt.agents.get(name)?.stop(null);
    rt.agents.delete(name);
    await engine.store.deleteSession(swarm, name);
    await engine.events.emit({ type: 'agent_removed', swarm, agent: name, message: `Agent ${name} removed by scaling.` });
  }
  const failed: { name: string; reason: string }[] = [];
  for (const plan of plans) {
    const s = await launchAgent(rt, plan);
    if (s.state === 'failed') failed.push({ name: s.name, reason: 'start_failed' });
    await engine.events.emit({ type: 'agent_added', swarm, agent: s.name, message: `Agent ${s.name} added by scaling.` });
  }
  return { status: 'ok', result: { added, removed, failed } };
}

export async function getTopology(engine: Engine, swarm: string): Promise<{ topology: readonly TopologyEntry[] }> {
  const view = await swarmView(engine, swarm);
  return { topology: view.kind === 'running' ? view.rt.topology.entries() : view.stored.topology };
}

export async function patchTopology(engine: Engine, swarm: string, body: unknown): Promise<{ status: 'ok'; added: number; removed: number }> {
  const rt = engine.runtime(swarm);
  if (!isRec(body)) throw invalid('expected {add?, remove?}', '');
  const list = (key: 'add' | 'remove'): [string, string][] => {
    const raw = body[key];
    if (raw === undefined) return [];
    if (!Array.isArray(raw)) throw invalid('expected a list of edges', key);
    return raw.map((e, i) => parseEdge(e, `${key}.${i}`));
  };
  const add = list('add');
  const remove = list('remove');
  const added = add.filter(([f, t], i) => !rt.topology.hasEdge(f, t) && add.findIndex(([f2, t2]) => f2 === f && t2 === t) === i).length;
  const removed = remove.filter(([f, t]) => rt.topology.hasEdge(f, t)).length;
  const ops: PendingOp[] = [];
  if (add.length > 0) ops.push({ op: 'add_topology_edges', payload: { edges: add } });
  if (remove.length > 0) ops.push({ op: 'remove_topology_edges', payload: { edges: remove } });
  const applied = await applyRuntimeOps(engine, rt, ops);
  await applied.commit();
  return { status: 'ok', added, removed };
}
