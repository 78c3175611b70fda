/** The overlay ops as one discriminated union: each op kind with the payload type fold applies. */
import type { Edge, IrAgent, IrError, IrObject } from '../state/types';

/** What happens to an agent's turn in flight when an op removes or replaces it (docs/ir.md). */
export const ON_INFLIGHT = ['drain', 'kill', 'quarantine'] as const;
export type OnInflight = (typeof ON_INFLIGHT)[number];
export const MIGRATIONS = ['state_migrate', 'restart'] as const;
export type Migration = (typeof MIGRATIONS)[number];
/** The slots `bump_package` may re-pin: an agent's body, model or backend; an object's handler. */
export const BUMP_FIELDS = ['body', 'model', 'backend', 'handler'] as const;
export type BumpField = (typeof BUMP_FIELDS)[number];

export type RemoveNodePayload = { name: string; on_inflight?: OnInflight };
export type EdgesPayload = { edges: Edge[] };
export type ScalePayload = { base_name: string; target_count: number; on_inflight?: OnInflight };
export type BumpPayload = {
  target: string;
  field: BumpField;
  /** `sha256:<hex>` the slot must hold now. */
  from: string;
  /** `sha256:<hex>` it is re-pinned to. */
  to: string;
  migration?: Migration;
  on_inflight?: OnInflight;
};
export type SetOptionsPayload = { options: Record<string, unknown> };
export type UpdateConfigPayload = { target: string; config: Record<string, unknown> };

/** One overlay op: an op kind and its payload (what the engine builds and stores, what fold applies). */
export type OverlayOp =
  | { op: 'add_agent'; payload: IrAgent }
  | { op: 'add_object'; payload: IrObject }
  | { op: 'remove_agent'; payload: RemoveNodePayload }
  | { op: 'remove_object'; payload: RemoveNodePayload }
  | { op: 'add_topology_edges'; payload: EdgesPayload }
  | { op: 'remove_topology_edges'; payload: EdgesPayload }
  | { op: 'scale_agent_group'; payload: ScalePayload }
  | { op: 'bump_package'; payload: BumpPayload }
  | { op: 'set_options'; payload: SetOptionsPayload }
  | { op: 'update_config'; payload: UpdateConfigPayload };

/** An overlay op with its sequence number, after `parseOverlayEvent` accepted it. */
export type ParsedOverlayEvent = OverlayOp & { seq: number };

/** `parseOverlayEvent`'s answer: the typed event, or the first rule the stored one breaks. */
export type OverlayEventParse = { kind: 'ok'; event: ParsedOverlayEvent } | { kind: 'invalid'; error: IrError };
