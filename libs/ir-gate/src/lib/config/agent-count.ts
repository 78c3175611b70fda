/**
 * Counted agent entries (`{ name: w, count: N }`): one entry declares `w_1 … w_N`, the names a
 * `scale_agent_group` of `w` gives, and an edge naming `w` stands for one edge per instance. Expansion is the
 * one place this meaning lives: the schema checks it, config → IR applies it, the written-out config equals it.
 */
import type { z } from 'zod';
import { scaledInstanceNames } from '../fold/scale';
import { AGENT_COUNT_MAX, EXPANDED_EDGES_MAX } from './limits';
import { isName } from './names';

type Ctx = z.RefinementCtx;
type Edge = readonly [string, string] | { readonly from: string; readonly to: string };
type EntryDraft = { readonly name: string; readonly count?: number | undefined; readonly workspace?: unknown };
type ConfigDraft = {
  readonly agents: readonly EntryDraft[];
  readonly objects?: readonly { readonly name: string }[] | undefined;
  readonly topology?: readonly Edge[] | undefined;
};

/** The instance names of an entry: itself, or `<name>_1 … <name>_<count>`. */
export function entryNames(entry: EntryDraft): string[] {
  return entry.count === undefined ? [entry.name] : scaledInstanceNames(entry.name, entry.count);
}

function pairOf(edge: Edge): [string, string] {
  return Array.isArray(edge) ? [edge[0], edge[1]] : [(edge as { from: string }).from, (edge as { to: string }).to];
}

/** Counted entries by name (a Map: names are untrusted). */
function countedByName(agents: readonly EntryDraft[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of agents) if (a.count !== undefined) out.set(a.name, a.count);
  return out;
}

/** Agents once counts are expanded (a count's instances have no `count`), and the edge count the topology expands to. */
export function expandedSizes(config: ConfigDraft): { agents: number; edges: number } {
  const counted = countedByName(config.agents);
  const width = (name: string): number => counted.get(name) ?? 1;
  const agents = config.agents.reduce((n, a) => n + (a.count ?? 1), 0);
  const edges = (config.topology ?? []).reduce((n, e) => {
    const [from, to] = pairOf(e);
    return n + width(from) * width(to);
  }, 0);
  return { agents, edges };
}

/** A count the field schema accepts (the refinements also run on entries whose count it refused). */
function isValidCount(count: unknown): count is number {
  return typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= AGENT_COUNT_MAX;
}

function checkEntry(a: EntryDraft, i: number, ctx: Ctx): boolean {
  if (a.count === undefined) return true;
  if (!isValidCount(a.count)) return false; // reported by the field's own schema
  if (!isName(`${a.name}_${a.count}`)) {
    ctx.addIssue({
      code: 'custom',
      path: ['agents', i, 'count'],
      message: 'the instance names <name>_<count> must be names (max 64 chars)',
    });
    return false;
  }
  // a directory would be shared by every instance (refused); a git workspace gives each instance its own clone
  if (typeof a.workspace === 'string') {
    const message =
      'a counted agent cannot set a workspace directory: each instance gets its own default workspace (a shared one is refused)';
    ctx.addIssue({ code: 'custom', path: ['agents', i, 'workspace'], message });
  }
  return true;
}

/** Every node name (instances expanded) is unique, and a counted entry's own name is claimed too (edges use it). */
function checkNames(config: ConfigDraft, ctx: Ctx): { names: Set<string>; instances: Set<string> } {
  const names = new Set<string>();
  const instances = new Set<string>();
  const claim = (name: string, where: (string | number)[]): void => {
    if (names.has(name)) ctx.addIssue({ code: 'custom', path: where, message: 'names must be unique across agents and objects' });
    names.add(name);
  };
  config.agents.forEach((a, i) => {
    if (!checkEntry(a, i, ctx)) return;
    if (a.count !== undefined) claim(a.name, ['agents', i, 'name']);
    for (const name of entryNames(a)) {
      claim(name, ['agents', i, 'name']);
      if (a.count !== undefined) instances.add(name);
    }
  });
  (config.objects ?? []).forEach((o, i) => claim(o.name, ['objects', i, 'name']));
  return { names, instances };
}

function checkEdge(
  edge: Edge,
  i: number,
  ctx: Ctx,
  nodes: { names: Set<string>; instances: Set<string> },
  counted: Map<string, number>,
): void {
  const [from, to] = pairOf(edge);
  for (const [end, side] of [
    [from, 'source'],
    [to, 'target'],
  ] as const) {
    if (!nodes.names.has(end)) ctx.addIssue({ code: 'custom', path: ['topology', i], message: `edge ${side} is not an agent or object` });
    else if (nodes.instances.has(end)) {
      const message = `edge ${side} is an instance of a counted agent: name the agent itself (an edge to it reaches every instance)`;
      ctx.addIssue({ code: 'custom', path: ['topology', i], message });
    }
  }
  if (from === to && counted.has(from))
    ctx.addIssue({ code: 'custom', path: ['topology', i], message: 'an edge from a counted agent to itself is refused' });
}

/**
 * The schema's cross-field checks of agent entries, objects and edges, counts expanded: unique names, edge
 * endpoints that exist and never an instance of a counted entry, the AGENT_COUNT_MAX and EXPANDED_EDGES_MAX caps.
 * Returns the node names (instances expanded).
 */
export function checkCountedConfig(config: ConfigDraft, ctx: Ctx): Set<string> {
  if (!config.agents.every((a) => a.count === undefined || isValidCount(a.count))) return new Set(); // the field's issue says why
  const sizes = expandedSizes(config);
  if (sizes.agents > AGENT_COUNT_MAX) {
    ctx.addIssue({ code: 'custom', path: ['agents'], message: `declares more than ${AGENT_COUNT_MAX} agents once counts are expanded` });
    return new Set();
  }
  const nodes = checkNames(config, ctx);
  const counted = countedByName(config.agents);
  (config.topology ?? []).forEach((edge, i) => checkEdge(edge, i, ctx, nodes, counted));
  if (sizes.edges > EXPANDED_EDGES_MAX) {
    const message = `the topology expands to more than ${EXPANDED_EDGES_MAX} edges (an edge between two counted agents joins every pair)`;
    ctx.addIssue({ code: 'custom', path: ['topology'], message });
  }
  return nodes.names;
}

/** The endpoints an edge end stands for: every instance of a counted entry, else the name itself. */
function endpoints(name: string, counted: Map<string, number>): string[] {
  const count = counted.get(name);
  return count === undefined ? [name] : scaledInstanceNames(name, count);
}

/**
 * The config written out: each counted entry replaced in place by its instances (the entry's fields, `name`
 * `<name>_<i>`, no `count`), each edge by one edge per pair of endpoints, in order. Expects a schema-valid config.
 */
export function expandAgentCounts<C extends ConfigDraft & { readonly agents: readonly object[] }>(config: C): C {
  const counted = countedByName(config.agents);
  if (counted.size === 0) return config;
  const agents = config.agents.flatMap((a) => {
    if (a.count === undefined) return [a];
    const { count: _count, ...fields } = a;
    return entryNames(a).map((name) => ({ ...structuredClone(fields), name }));
  });
  const topology = config.topology?.flatMap((edge) => {
    const [from, to] = pairOf(edge);
    return endpoints(from, counted).flatMap((f) => endpoints(to, counted).map((t) => [f, t] as [string, string]));
  });
  return { ...config, agents: agents as C['agents'], ...(topology === undefined ? {} : { topology }) };
}
