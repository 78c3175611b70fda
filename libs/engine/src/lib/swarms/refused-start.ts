/**
 * A start refused at plan time (an agent's runner plan or preflight) creates nothing, but it is not
 * silent: one `swarm_start_failed` event and one server-log line carry the code,
 * the agent, the sentence and the detail fields — the same the 400 answer carries.
 */
import { EngineError } from '../errors/engine-error';
import type { EventBus } from '../events/event-bus';

export async function recordRefusedStart(events: EventBus, swarm: string, error: unknown): Promise<void> {
  if (!(error instanceof EngineError)) return; // an internal failure is reported as such by the caller's edge
  const agent = typeof error.details['agent'] === 'string' ? error.details['agent'] : null;
  const fields = { error: error.code, message: error.message, ...error.details };
  events.logError('swarm_start_failed', { swarm, ...fields });
  await events.emit({
    type: 'swarm_start_failed',
    swarm,
    agent,
    message: `Swarm ${swarm} was not started: ${agent === null ? '' : `${agent}: `}${error.code}: ${error.message}`,
    metadata: fields,
  });
}
