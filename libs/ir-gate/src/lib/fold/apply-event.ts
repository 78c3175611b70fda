import type { BumpPayload, EdgesPayload, ParsedOverlayEvent, UpdateConfigPayload } from '../overlay/overlay-op';
import type { Edge, IrAgent, IrError, IrObject, ModelSlot, Ref, SwarmState } from '../state/types';
import { isRecord } from '../state/types';
import { scaleGroup } from './scale';

function nodeExists(s: SwarmState, name: string): boolean {
  return s.agents.some((a) => a.name === name) || s.objects.some((o) => o.name === name);
}

function dropEdgesOf(s: SwarmState, name: string): void {
  s.topology = s.topology.filter(([f, t]) => f !== name && t !== name);
}

function addAgent(s: SwarmState, payload: IrAgent): IrError | null {
  const agent = structuredClone(payload);
  if (nodeExists(s, agent.name)) return { code: 'agent_exists', name: agent.name };
  s.agents.push(agent);
  return null;
}

function addObject(s: SwarmState, payload: IrObject): IrError | null {
  const object = structuredClone(payload);
  if (nodeExists(s, object.name)) return { code: 'object_exists', name: object.name };
  s.objects.push(object);
  return null;
}

function removeNode(s: SwarmState, name: string, which: 'agents' | 'objects'): IrError | null {
  const list: Array<{ name: string }> = s[which];
  if (!list.some((n) => n.name === name)) return { code: which === 'agents' ? 'agent_not_found' : 'object_not_found', name };
  if (which === 'agents') s.agents = s.agents.filter((a) => a.name !== name);
  else s.objects = s.objects.filter((o) => o.name !== name);
  dropEdgesOf(s, name);
  return null;
}

const edgeKey = (e: Edge): string => JSON.stringify(e);

function addEdges(s: SwarmState, { edges }: EdgesPayload): IrError | null {
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

function removeEdges(s: SwarmState, { edges }: EdgesPayload): IrError | null {
  const drop = new Set(edges.map(edgeKey));
  s.topology = s.topology.filter((e) => !drop.has(edgeKey(e)));
  return null;
}

function findNode(s: SwarmState, name: string): IrAgent | IrObject | undefined {
  return s.agents.find((a) => a.name === name) ?? s.objects.find((o) => o.name === name);
}

function updateConfig(s: SwarmState, { target, config }: UpdateConfigPayload): IrError | null {
  const node = findNode(s, target);
  if (node === undefined) return { code: 'target_not_found', target };
  node.config = { ...(isRecord(node.config) ? node.config : {}), ...structuredClone(config) };
  return null;
}

/** The ref a model slot pins: its own, or its policy's. */
function modelRef(slot: ModelSlot): Ref {
  return 'policy' in slot ? slot.policy : slot;
}

/** The ref `field` names on an agent (body, model, backend) or an object (handler); undefined when it has no such slot. */
function slotRef(node: { agent: IrAgent } | { object: IrObject }, field: BumpPayload['field']): Ref | undefined {
  if ('object' in node) return field === 'handler' ? node.object.handler : undefined;
  switch (field) {
    case 'body':
      return node.agent.body;
    case 'model':
      return modelRef(node.agent.model);
    case 'backend':
      return node.agent.backend;
    case 'handler':
      return undefined;
  }
}

function bumpSlot(s: SwarmState, p: BumpPayload): IrError | null {
  const agent = s.agents.find((a) => a.name === p.target);
  const object = agent === undefined ? s.objects.find((o) => o.name === p.target) : undefined;
  const node = agent !== undefined ? { agent } : object !== undefined ? { object } : undefined;
  if (node === undefined) return { code: 'target_not_found', target: p.target };
  const ref = slotRef(node, p.field);
  if (ref === undefined) return { code: 'invalid_bump_field', field: p.field };
  if (ref.digest !== p.from) return { code: 'bump_digest_mismatch', expected: p.from, got: ref.digest ?? null };
  ref.digest = p.to;
  return null;
}

/** Applies one parsed event to a private draft (mutates it). */
export function applyEvent(s: SwarmState, ev: ParsedOverlayEvent): IrError | null {
  switch (ev.op) {
    case 'add_agent':
      return addAgent(s, ev.payload);
    case 'add_object':
      return addObject(s, ev.payload);
    case 'remove_agent':
      return removeNode(s, ev.payload.name, 'agents');
    case 'remove_object':
      return removeNode(s, ev.payload.name, 'objects');
    case 'add_topology_edges':
      return addEdges(s, ev.payload);
    case 'remove_topology_edges':
      return removeEdges(s, ev.payload);
    case 'scale_agent_group':
      return scaleGroup(s, ev.payload.base_name, ev.payload.target_count);
    case 'bump_package':
      return bumpSlot(s, ev.payload);
    case 'set_options':
      s.options = { ...s.options, ...structuredClone(ev.payload.options) };
      return null;
    case 'update_config':
      return updateConfig(s, ev.payload);
  }
}
