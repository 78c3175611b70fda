import type { Edge, IrAgent, IrObject, SwarmState } from '../state/types';
import { isRecord } from '../state/types';

export type ReconcileAction =
  | { type: 'start_agent'; name: string }
  | { type: 'start_object'; name: string }
  | { type: 'restart_agent'; name: string }
  | { type: 'restart_object'; name: string }
  | { type: 'add_edge'; from: string; to: string }
  | { type: 'remove_edge'; from: string; to: string }
  | { type: 'stop_agent'; name: string }
  | { type: 'stop_object'; name: string };

/** Canonical JSON (sorted keys) so key order never counts as a difference. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function agentFingerprint(a: IrAgent): string {
  return canonicalJson([a.body, a.model, a.backend, a.overrides ?? {}, a.config ?? {}]);
}

function objectFingerprint(o: IrObject): string {
  return canonicalJson([o.handler, o.config ?? {}]);
}

type Node = { name: string };

function diffNodes<T extends Node>(desired: T[], observed: T[], print: (n: T) => string) {
  const obs = new Map(observed.map((n) => [n.name, n]));
  const des = new Set(desired.map((n) => n.name));
  return {
    start: desired.filter((n) => !obs.has(n.name)).map((n) => n.name),
    restart: desired.filter((n) => obs.has(n.name) && print(obs.get(n.name) as T) !== print(n)).map((n) => n.name),
    stop: observed.filter((n) => !des.has(n.name)).map((n) => n.name),
  };
}

function edgeDiff(from: Edge[], minus: Edge[]): Edge[] {
  const drop = new Set(minus.map((e) => JSON.stringify(e)));
  return from.filter((e) => !drop.has(JSON.stringify(e)));
}

/**
 * docs/ir.md: start*, start_object*, restart*, restart_object*, add_edge* (desired order),
 * remove_edge* (observed order), stop*, stop_object*. Empty ⇔ converged.
 */
export function planReconcile(desired: SwarmState, observed: SwarmState): ReconcileAction[] {
  const agents = diffNodes(desired.agents, observed.agents, agentFingerprint);
  const objects = diffNodes(desired.objects ?? [], observed.objects ?? [], objectFingerprint);
  return [
    ...agents.start.map((name) => ({ type: 'start_agent', name }) as const),
    ...objects.start.map((name) => ({ type: 'start_object', name }) as const),
    ...agents.restart.map((name) => ({ type: 'restart_agent', name }) as const),
    ...objects.restart.map((name) => ({ type: 'restart_object', name }) as const),
    ...edgeDiff(desired.topology ?? [], observed.topology ?? []).map(([from, to]) => ({ type: 'add_edge', from, to }) as const),
    ...edgeDiff(observed.topology ?? [], desired.topology ?? []).map(([from, to]) => ({ type: 'remove_edge', from, to }) as const),
    ...agents.stop.map((name) => ({ type: 'stop_agent', name }) as const),
    ...objects.stop.map((name) => ({ type: 'stop_object', name }) as const),
  ];
}

/** True when the plan from `observed` to `desired` is empty. */
export function isConverged(desired: SwarmState, observed: SwarmState): boolean {
  return planReconcile(desired, observed).length === 0;
}
