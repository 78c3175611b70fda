import type { Edge, IrAgent, IrError, IrObject, OverlayEvent, Ref, SwarmState } from '../state/types';
import { isRecord } from '../state/types';
import { scaleGroup } from './scale';

type P = Record<string, unknown>;

function nodeExists(s: SwarmState, name: string): boolean {
  return s.agents.some((a) => a.name === name) || s.objects.some((o) => o.name === name);
}

function dropEdgesOf(s: SwarmState, name: string): void {
  s.topology = s.topology.filter(([f, t]) => f !== name && t !== name);
}

function addAgent(s: SwarmState, p: P): IrError | null {
  const agent = structuredClone(p) as unknown as IrAgent;
  if (nodeExists(s, agent.name)) return { code: 'agent_exists', name: agent.name };
  s.agents.push(agent);
  return null;
}

function addObject(s: SwarmState, p: P): IrError | null {
  const object = structuredClone(p) as unknown as IrObject;
  if (nodeExists(s, object.name)) return { code: 'object_exists', name: object.name };
  s.objects.push(object);
  return null;
}

function removeNode(s: SwarmState, p: P, which: 'agents' | 'objects'): IrError | null {
  const name = p['name'] as string;
  const list: Array<{ name: string }> = s[which];
  if (!list.some((n) => n.name === name)) return { code: which === 'agents' ? 'agent_not_found' : 'object_not_found', name };
  if (which === 'agents') s.agents = s.agents.filter((a) => a.name !== name);
  else s.objects = s.objects.filter((o) => o.name !== name);
  dropEdgesOf(s, name);
  return null;
}

const edgeKey = (e: Edge): string => JSON.stringify(e);

function addEdges(s: SwarmState, p: P): IrError | null {
  const edges = p['edges'] as Edge[];
  for (const [from, to] of edges) {
    if (!nodeExists(s, from)) return { code: 'unknown_edge_endpoint', endpoint: from };
    if (!nodeExists(s, to)) return { code: 'unknown_edge_endpoint', endpoint: to };
  }
  const present = new Set(s.topology.map(edgeKey));
  for (const e of edges) {
    if (!present.has(edgeKey(e))) s.topology.push([e[0], e[1]]);
    present.add(edgeKey(e));
  }
  return null;
}

function removeEdges(s: SwarmState, p: P): IrError | null {
  const drop = new Set((p['edges'] as Edge[]).map(edgeKey));
  s.topology = s.topology.filter((e) => !drop.has(edgeKey(e)));
  return null;
}

function findNode(s: SwarmState, name: string): IrAgent | IrObject | undefined {
  return s.agents.find((a) => a.name === name) ?? s.objects.find((o) => o.name === name);
}

function updateConfig(s: SwarmState, p: P): IrError | null {
  const node = findNode(s, p['target'] as string);
  if (node === undefined) return { code: 'target_not_found', target: p['target'] };
  node.config = { ...(isRecord(node.config) ? node.config : {}), ...structuredClone(p['config'] as P) };
  return null;
}

function bumpSlot(s: SwarmState, p: P): IrError | null {
  const target = p['target'] as string;
  const field = p['field'] as string;
  const agent = s.agents.find((a) => a.name === target);
  const object = agent === undefined ? s.objects.find((o) => o.name === target) : undefined;
  if (agent === undefined && object === undefined) return { code: 'target_not_found', target };
  const fits = agent !== undefined ? ['body', 'model', 'backend'].includes(field) : field === 'handler';
  if (!fits) return { code: 'invalid_bump_field', field };
  const slot = (agent ?? object) as unknown as Record<string, Ref | { policy: Ref }>;
  const holder = slot[field] as Ref | { policy: Ref };
  const ref: Ref = 'policy' in holder && isRecord(holder.policy) ? holder.policy : (holder as Ref);
  if (ref.digest !== p['from']) return { code: 'bump_digest_mismatch', expected: p['from'], got: ref.digest ?? null };
  ref.digest = p['to'] as string;
  return null;
}

/** Applies one already-validated event to a private draft (mutates it). */
export function applyEvent(s: SwarmState, ev: OverlayEvent): IrError | null {
  const p = ev.payload;
  switch (ev.op) {
    case 'add_agent':
      return addAgent(s, p);
    case 'add_object':
      return addObject(s, p);
    case 'remove_agent':
      return removeNode(s, p, 'agents');
    case 'remove_object':
      return removeNode(s, p, 'objects');
    case 'add_topology_edges':
      return addEdges(s, p);
    case 'remove_topology_edges':
      return removeEdges(s, p);
    case 'scale_agent_group':
      return scaleGroup(s, p['base_name'] as string, p['target_count'] as number);
    case 'bump_package':
      return bumpSlot(s, p);
    case 'set_options':
      s.options = { ...s.options, ...structuredClone(p['options'] as P) };
      return null;
    case 'update_config':
      return updateConfig(s, p);
  }
}
