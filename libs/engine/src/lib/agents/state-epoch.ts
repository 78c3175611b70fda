/**
 * A process-wide counter bumped whenever any agent session is created or changes state: a summary of agent
 * states (the swarm list's `agents_by_state`) stays valid while the counter has not moved, so
 * `GET /api/swarms` does not walk every agent of every swarm per request.
 */
let epoch = 0;

export function bumpStateEpoch(): void {
  epoch += 1;
}

export function stateEpoch(): number {
  return epoch;
}
