/** An IR error: a snake_case code plus details (docs/ir.md). */
export type IrError = { code: string; [detail: string]: unknown };

/** A reference to a package, model, backend or handler (docs/ir.md). */
export interface Ref {
  ref: string;
  kind?: 'data' | 'code';
  digest?: string;
  attested?: boolean;
  host?: string;
  image?: string;
  opts?: Record<string, unknown>;
}

export type ModelSlot = Ref | { policy: Ref };

// Node types are aliases, not interfaces, so an op payload of them is also a plain JSON record to a store.
export type IrAgent = {
  name: string;
  body: Ref;
  model: ModelSlot;
  backend: Ref;
  overrides?: Record<string, unknown>;
  config?: Record<string, unknown>;
};

export type IrObject = {
  name: string;
  handler: Ref;
  config?: Record<string, unknown>;
};

export type Edge = [string, string];

export interface SwarmState {
  v: 1;
  kind: 'swarm.state';
  name: string;
  phase: 'desired' | 'observed';
  agents: IrAgent[];
  objects: IrObject[];
  topology: Edge[];
  options: Record<string, unknown>;
}

export const OP_NAMES = [
  'add_agent',
  'add_object',
  'remove_agent',
  'remove_object',
  'add_topology_edges',
  'remove_topology_edges',
  'scale_agent_group',
  'bump_package',
  'set_options',
  'update_config',
] as const;
export type OpName = (typeof OP_NAMES)[number];

/**
 * An overlay event as stored or received: nothing in `op` or `payload` is trusted (a row of an older
 * database, a tampered one, a request). `parseOverlayEvent` turns it into a typed `ParsedOverlayEvent`
 * or refuses it with an IrError; fold applies only parsed events.
 */
export interface OverlayEvent {
  seq: number;
  op: string;
  payload: unknown;
  /** Stored events may carry a timestamp; fold ignores it. */
  timestamp?: string;
}

export interface SwarmOverlay {
  v: 1;
  kind: 'swarm.overlay';
  swarm: string;
  apply: 'incremental' | 'transactional';
  events: OverlayEvent[];
}

/** Result of fold / materialize / applyOp. `seq` is null for an overlay envelope error. */
export type FoldResult = { kind: 'ok'; state: SwarmState } | { kind: 'error'; seq: number | null; error: IrError };

/** True for a non-null, non-array object: the one record guard of the workspace (exported). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property read (never walks the prototype chain). */
export function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
