import type { IrError } from './types';
import { isRecord, own } from './types';
import { validateAgent, validateObject } from './validate-node';

function checkEnvelope(x: Record<string, unknown>): IrError | null {
  const v = own(x, 'v');
  if (v !== 1) return { code: 'unsupported_version', value: v ?? null };
  if (own(x, 'kind') !== 'swarm.state') return { code: 'wrong_kind', value: own(x, 'kind') ?? null };
  const name = own(x, 'name');
  if (typeof name !== 'string' || name.trim() === '') return { code: 'missing', field: 'name' };
  const phase = own(x, 'phase');
  if (phase !== 'desired' && phase !== 'observed') return { code: 'invalid_phase', value: phase ?? null };
  return null;
}

function checkNodes(x: Record<string, unknown>): IrError | null {
  const agents = own(x, 'agents');
  if (agents === undefined) return { code: 'missing', field: 'agents' };
  if (!Array.isArray(agents)) return { code: 'invalid', field: 'agents' };
  for (const agent of agents) {
    const err = validateAgent(agent);
    if (err !== null) return err;
  }
  const objects = own(x, 'objects') ?? [];
  if (!Array.isArray(objects)) return { code: 'invalid', field: 'objects' };
  for (const object of objects) {
    const err = validateObject(object);
    if (err !== null) return err;
  }
  return null;
}

/** True for a `[string, string]` array. */
export function isEdge(e: unknown): e is [string, string] {
  return Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'string';
}

function checkTopology(x: Record<string, unknown>): IrError | null {
  const topology = own(x, 'topology') ?? [];
  if (!Array.isArray(topology)) return { code: 'invalid_topology' };
  const bad = topology.findIndex((e) => !isEdge(e));
  return bad < 0 ? null : { code: 'invalid_edge', index: bad };
}

/** Node names in order; reports the first duplicate across agents and objects. */
export function findDuplicateName(names: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

function checkReferences(x: Record<string, unknown>): IrError | null {
  const names = [...(x['agents'] as Array<{ name: string }>), ...((own(x, 'objects') ?? []) as Array<{ name: string }>)].map((n) => n.name);
  const dup = findDuplicateName(names);
  if (dup !== null) return { code: 'duplicate_name', name: dup };
  const known = new Set(names);
  for (const [from, to] of (own(x, 'topology') ?? []) as Array<[string, string]>) {
    if (!known.has(from)) return { code: 'unknown_edge_endpoint', endpoint: from };
    if (!known.has(to)) return { code: 'unknown_edge_endpoint', endpoint: to };
  }
  return null;
}

/** docs/ir.md in its exact order; `null` when valid. `options` is not validated. */
export function validateState(x: unknown): IrError | null {
  const s = isRecord(x) ? x : {};
  return checkEnvelope(s) ?? checkNodes(s) ?? checkTopology(s) ?? checkReferences(s);
}
