/**
 * How the host ends a turn it no longer watches (a stop, an engine failure, the client's exit, a crash found by
 * recovery): its host receipt first, the store second (host-receipt.ts: a crash in between is settled by
 * recovery), then the turn's event. Each returns false when the turn was already final: nothing is emitted then.
 */
import { TURN_CANCELLED_ERROR } from './host-receipt';
import type { TurnPort } from './session-ports';

/** The turn ends `error` with `error`: one `turn_failed` (`message`, `metadata`) and the `turn_completed` push. */
export async function failTurnByHost(
  port: TurnPort,
  turnId: string,
  error: string,
  message: string,
  metadata: Record<string, unknown>,
): Promise<boolean> {
  await port.writeHostReceipt(turnId, error);
  if (!(await port.store.finishTurn(turnId, { status: 'error', error, replyPreview: null, completedAt: port.now() }))) return false;
  await port.events.emit({ type: 'turn_failed', swarm: port.swarm, agent: port.agent, message, metadata });
  port.push({ type: 'turn_completed', payload: { agent: port.agent, turn: turnId, status: 'error', error, reply_preview: null } });
  return true;
}

/** The turn ends `cancelled` (stop, restart, remove; also a `timed_out` one). */
export async function cancelTurnByHost(port: TurnPort, turnId: string): Promise<boolean> {
  await port.writeHostReceipt(turnId, TURN_CANCELLED_ERROR);
  if (!(await port.store.finishTurn(turnId, { status: 'cancelled', completedAt: port.now() }))) return false;
  await emitCancelled(port, turnId);
  return true;
}

/**
 * Recovery found the host receipt of an open turn (the engine crashed after writing it, before the store
 * update): the turn ends as the host meant — cancelled, or error delivery_failed — once, with its event, and is
 * not delivered again.
 */
export async function settleFromHostReceipt(port: TurnPort, turnId: string, error: string): Promise<boolean> {
  const cancelled = error === TURN_CANCELLED_ERROR;
  const finish = cancelled ? { status: 'cancelled' as const } : { status: 'error' as const, error };
  if (!(await port.store.finishTurn(turnId, { ...finish, completedAt: port.now() }))) return false;
  if (cancelled) await emitCancelled(port, turnId);
  else
    await port.events.emit({
      type: 'turn_failed',
      swarm: port.swarm,
      agent: port.agent,
      message: `Turn ${turnId} could not be delivered.`,
      metadata: { turn: turnId, error },
    });
  return true;
}

/** One `turn_failed` (level info, `status: cancelled`) per cancelled turn (docs/observability.md has no turn_cancelled). */
function emitCancelled(port: TurnPort, turnId: string): Promise<unknown> {
  return port.events.emit({
    type: 'turn_failed',
    level: 'info',
    swarm: port.swarm,
    agent: port.agent,
    message: `Turn ${turnId} cancelled.`,
    metadata: { turn: turnId, status: 'cancelled', error: TURN_CANCELLED_ERROR },
  });
}
