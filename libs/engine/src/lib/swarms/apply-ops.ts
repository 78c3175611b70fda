/** Runtime mutations through the gate (§12.8): `applyOp` on the live state; refused → nothing changes. */
import { applyOp, mapIrErrorToHttp, stateToConfig, type IrError, type OpName, type SwarmConfig, type SwarmState } from '@genswarms/ir-gate';
import { EngineError, isEngineErrorCode } from '../errors/engine-error';
import type { Ports } from './engine-context';
import type { SwarmRuntime } from './swarm-runtime';

export interface PendingOp {
  readonly op: OpName;
  readonly payload: Record<string, unknown>;
}

export interface AppliedOps {
  readonly state: SwarmState;
  readonly effective: SwarmConfig;
  /** Appends one overlay event per op, installs the state and pushes `topology_changed`. */
  commit(): Promise<void>;
}

const AGENT_CODES: ReadonlySet<string> = new Set(['agent_exists', 'agent_not_found', 'scale_base_not_found']);

/**
 * The §12.8 HTTP mapping with §4 detail names: a node refusal names an agent in `agent`; `name` is
 * not a §4 detail field, so an object's or swarm's name is not echoed (the caller named it in the path).
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
