import { MAX_AGENTS_LIMIT } from '../config/limits';
import { isName } from '../config/names';
import { IrGateError } from '../errors/ir-gate-error';
import type { Edge, IrAgent, IrError, SwarmState } from '../state/types';

/** `<base>_1 … <base>_n` (docs/ir.md). Throws IrGateError `invalid_argument` unless 0 ≤ n ≤ 100000. */
export function scaledInstanceNames(base: string, n: number): string[] {
  if (!Number.isInteger(n) || n < 0 || n > MAX_AGENTS_LIMIT) throw new IrGateError('invalid_argument', 'n must be an integer 0..100000');
  return Array.from({ length: n }, (_, i) => `${base}_${i + 1}`);
}

/** The instance number of `name` in `base`'s group (`base_<n>`, n without leading zero), else null. */
export function instanceNumber(base: string, name: string): string | null {
  if (!name.startsWith(`${base}_`)) return null;
  const rest = name.slice(base.length + 1);
  return /^[1-9][0-9]*$/.test(rest) ? rest : null;
}

function isMember(base: string, name: string): boolean {
  return name === base || instanceNumber(base, name) !== null;
}

function compareNumeric(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function pickTemplate(base: string, group: IrAgent[]): IrAgent {
  const exact = group.find((a) => a.name === base);
  if (exact !== undefined) return exact;
  const sorted = [...group].sort((a, b) => compareNumeric(instanceNumber(base, a.name) ?? '', instanceNumber(base, b.name) ?? ''));
  return sorted[0] as IrAgent;
}

function rewriteEdges(topology: Edge[], base: string, names: string[]): Edge[] {
  const out: Edge[] = [];
  const seen = new Set<string>();
  const push = (e: Edge): void => {
    const key = JSON.stringify(e);
    if (!seen.has(key)) out.push(e);
    seen.add(key);
  };
  for (const [from, to] of topology) {
    const f = isMember(base, from);
    const t = isMember(base, to);
    if (!f && !t) push([from, to]);
    else if (f && t) names.forEach((n) => push([n, n]));
    else if (f) names.forEach((n) => push([n, to]));
    else names.forEach((n) => push([from, n]));
  }
  return out;
}

/** Scales `base`'s group to exactly `base_1 … base_N`; mutates and returns `state`. */
export function scaleGroup(state: SwarmState, base: string, n: number): IrError | null {
  const group = state.agents.filter((a) => isMember(base, a.name));
  if (group.length === 0) return { code: 'scale_base_not_found', base_name: base };
  const names = scaledInstanceNames(base, n);
  const bad = names.find((name) => !isName(name));
  if (bad !== undefined) return { code: 'invalid_name', name: bad };
  const clash = names.find((name) => state.objects.some((o) => o.name === name));
  if (clash !== undefined) return { code: 'object_exists', name: clash };
  const template = pickTemplate(base, group);
  const byName = new Map(group.map((a) => [a.name, a]));
  const instances = names.map((name) => byName.get(name) ?? { ...structuredClone(template), name });
  const firstIndex = state.agents.findIndex((a) => isMember(base, a.name));
  const before = state.agents.slice(0, firstIndex).filter((a) => !isMember(base, a.name));
  const after = state.agents.slice(firstIndex).filter((a) => !isMember(base, a.name));
  state.agents = [...before, ...instances, ...after];
  state.topology = rewriteEdges(state.topology, base, names);
  return null;
}

/**
 * The group `name` belongs to: the longest of `bases` (bases a `scale_agent_group` named) whose instance it
 * is (`<base>_<n>`), else `name` itself. Scaled instances share their base's LLM budget under this name.
 */
export function scaleGroupOf(name: string, bases: Iterable<string>): string {
  let group = name;
  for (const base of bases) if (instanceNumber(base, name) !== null && (group === name || base.length > group.length)) group = base;
  return group;
}
