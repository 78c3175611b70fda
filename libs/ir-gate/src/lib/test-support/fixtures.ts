import type { IrAgent, IrObject, OverlayEvent, SwarmState } from '../state/types';

/** A minimal valid IR agent. */
export function irAgent(name: string, extra: Partial<IrAgent> = {}): IrAgent {
  return {
    name,
    body: { ref: `inline:${name}`, kind: 'data' },
    model: { ref: 'model:default' },
    backend: { ref: 'bwrap' },
    overrides: {},
    config: {},
    ...extra,
  };
}

export function irObject(name: string, handler = 'recorder'): IrObject {
  return { name, handler: { ref: `handler:${handler}`, kind: 'code' } };
}

export function irState(agents: IrAgent[], extra: Partial<SwarmState> = {}): SwarmState {
  return { v: 1, kind: 'swarm.state', name: 's', phase: 'desired', agents, objects: [], topology: [], options: {}, ...extra };
}

let nextSeq = 1;
/** An event with an ascending seq. */
export function ev(op: OverlayEvent['op'], payload: Record<string, unknown>, seq?: number): OverlayEvent {
  return { seq: seq ?? nextSeq++, op, payload };
}
