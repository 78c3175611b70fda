/** Runtime mutations through the gate (docs/ir.md#the-gate): `applyOp` on the live state; refused → nothing changes. */
import {
  applyOp,
  mapIrErrorToHttp,
  stateToConfig,
  type IrError,
  type OverlayOp,
  type SwarmConfig,
  type SwarmState,
} from '@genswarms/ir-gate';
import { EngineError, isEngineErrorCode } from '../errors/engine-error';
import type { Ports } from './engine-context';
import type { SwarmRuntime } from './swarm-runtime';

/** One overlay op of a runtime mutation, typed by its kind (ir-gate's union; fold parses it again when stored). */
export type PendingOp = OverlayOp;

export interface AppliedOps {
  readonly state: SwarmState;
  readonly effective: SwarmConfig;
  /** Appends one overlay event per op, installs the state and pushes `topology_changed`. */
  commit(): Promise<void>;
}

const AGENT_CODES: ReadonlySet<string> = new Set(['agent_exists', 'agent_not_found', 'scale_base_not_found']);

/**
 * The gate's HTTP mapping with the error detail names: a node refusal names an agent in `agent`; `name` is
 * not an error detail field, so an object's or swarm's name is not echoed (the caller named it in the path).
 */
export function irToEngineError(error: IrError, opts: { objectPatch?: boolean } = {}): EngineError {
  const mapped = mapIrErrorToHttp(error, opts);
  const { error: code, message, name, ...details } = mapped.body;
  const agent = AGENT_CODES.has(error.code) && typeof name === 'string' ? { agent: name } : {};
  return new EngineError(
    isEngineErrorCode(code) ? code : 'ir_validation_failed',
    message,
    { ...details, ...agent },
    { status: mapped.status },
  );
}

export async function applyRuntimeOps(
  ctx: Ports<'clock' | 'limits' | 'pushes' | 'store'>,
  rt: SwarmRuntime,
  ops: readonly PendingOp[],
  opts: { objectPatch?: boolean } = {},
): Promise<AppliedOps> {
  const overlay = await ctx.store.listOverlay(rt.swarm);
  let seq = overlay.reduce((m, e) => Math.max(m, e.seq), 0);
  let state = rt.state;
  for (const op of ops) {
    seq += 1;
    const r = applyOp(state, { seq, op: op.op, payload: op.payload }, { maxAgents: ctx.limits.maxAgents });
    if (r.kind === 'error') throw irToEngineError(r.error, opts);
    state = r.state;
  }
  const finalState = state;
  return {
    state: finalState,
    effective: stateToConfig(finalState),
    commit: async () => {
      const at = ctx.clock.now().toISOString();
      for (const op of ops) await ctx.store.appendOverlayEvent(rt.swarm, op.op, op.payload, at);
      rt.replaceState(finalState);
      ctx.pushes.push(rt.swarm, { type: 'topology_changed', payload: { topology: rt.topology.entries() } });
    },
  };
}
