/** Small shared helpers of the swarm layer. */
import type { OverlayEvent } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import { NAME_RE } from '@genswarms/ir-gate';
import type { OverlayEventRow } from '../store/store';

export function assertName(kind: 'swarm' | 'agent' | 'object', name: string): void {
  if (!NAME_RE.test(name)) {
    const code = kind === 'swarm' ? 'swarm_not_found' : kind === 'agent' ? 'agent_not_found' : 'object_not_found';
    throw new EngineError(code, `No such ${kind}.`);
  }
}

export function toOverlayEvents(rows: readonly OverlayEventRow[]): Array<OverlayEvent & { payload: Record<string, unknown> }> {
  // Rows are untrusted (an older or tampered database): fold parses each one and refuses it with a code.
  return rows.map((r) => ({ seq: r.seq, op: r.op, payload: { ...r.payload } }));
}
