/**
 * Object state persistence (docs/architecture.md "Object state"): every state change is saved; a start
 * (recovery, restart, a stop then start) takes the saved state instead of running `init`. A state that
 * cannot be saved (> 1 MiB, not JSON-serialisable) is NOT kept stale in the store: its row is deleted,
 * one `object_error` (warning, `reason`) says so, and the object runs on in memory.
 */
import { failureCode } from '../events/failure-report';
import { encodeObjectState, OBJECT_STATE_MAX_BYTES, parseObjectState } from '../objects/object-state';
import type { ObjectInstance, StatePersister } from '../objects/object-instance';
import type { SwarmRuntime } from './swarm-runtime';

export type StateProblem = 'object_state_too_large' | 'object_state_not_serializable' | 'object_state_invalid' | 'object_state_save_failed';

function warn(
  rt: SwarmRuntime,
  object: string,
  reason: StateProblem,
  message: string,
  extra: Record<string, unknown> = {},
): Promise<unknown> {
  return rt.events.emit({
    type: 'object_error',
    level: 'warning',
    swarm: rt.swarm,
    agent: object,
    message,
    metadata: { reason, ...extra },
  });
}

/** The persister of one runtime; a failure to save is reported once until a save succeeds again. */
export function objectStatePersister(rt: SwarmRuntime): StatePersister {
  const failing = new Map<string, StateProblem>();
  return async (inst: ObjectInstance): Promise<void> => {
    const enc = encodeObjectState(inst.state);
    let problem: StateProblem | null = null;
    let code: string | null = null;
    try {
      if (enc.kind === 'ok')
        await rt.store.saveObjectState(rt.swarm, inst.name, enc.json, {
          handler: inst.handlerName,
          updatedAt: rt.clock.now().toISOString(),
        });
      else {
        problem = enc.kind === 'too_large' ? 'object_state_too_large' : 'object_state_not_serializable';
        await rt.store.deleteObjectState(rt.swarm, inst.name);
      }
    } catch (e) {
      problem = 'object_state_save_failed';
      code = failureCode(e);
    }
    if (problem === null) {
      failing.delete(inst.name);
      return;
    }
    if (failing.get(inst.name) === problem) return;
    failing.set(inst.name, problem);
    const extra = enc.kind === 'too_large' ? { bytes: enc.bytes, limit: OBJECT_STATE_MAX_BYTES } : code === null ? {} : { code };
    await warn(rt, inst.name, problem, `State of object ${inst.name} not persisted (${problem}); it keeps running in memory.`, extra);
  };
}

/**
 * Restores the saved state of the same handler; false when there is none (or it is another handler's,
 * or it fails to parse — then one `object_error` warning): the caller runs `init`, which overwrites it.
 */
export async function restoreObjectState(rt: SwarmRuntime, inst: ObjectInstance): Promise<boolean> {
  const row = await rt.store.getObjectState(rt.swarm, inst.name);
  if (row === null || row.handler !== inst.handlerName) return false;
  const parsed = parseObjectState(row.stateJson);
  if (parsed.kind === 'invalid') {
    await warn(
      rt,
      inst.name,
      'object_state_invalid',
      `Saved state of object ${inst.name} is unusable (${parsed.reason}); init runs again.`,
      { detail: parsed.reason },
    );
    return false;
  }
  inst.restore(parsed.state);
  return true;
}
