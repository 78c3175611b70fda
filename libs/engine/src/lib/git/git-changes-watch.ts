/**
 * `git_changes`: after each turn of an agent with a git workspace, the host reads its work (the runners' pure
 * reader) and emits one event when what the agent left differs from what the last event said.
 */
import { listAgentChanges } from '@genswarms/runners';
import type { EventBus } from '../events/event-bus';
import type { StoredEvent } from '../store/store';
import { agentGitWork } from './git-ops';

const TURN_END_EVENTS = new Set(['turn_completed', 'turn_failed', 'turn_timeout']);

/** What a watcher needs: the home, the bus it listens on and emits to, where a failed read is reported. */
export interface GitChangesWatchDeps {
  readonly home: string;
  readonly events: Pick<EventBus, 'subscribe' | 'emit'>;
  readonly report: (error: unknown, swarm: string, agent: string) => void;
}

/** Subscribes; returns the unsubscribe function. One read per agent at a time; a turn ending meanwhile reads again after. */
export function watchGitChanges(deps: GitChangesWatchDeps): () => void {
  const last = new Map<string, string>();
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const check = async (swarm: string, agent: string): Promise<void> => {
    const key = `${swarm}\0${agent}`;
    const work = await agentGitWork({ home: deps.home }, swarm, agent);
    if (work === undefined) return;
    const mark = `${work.branchHead}:${work.snapshot ?? ''}`;
    if (last.get(key) === mark) return;
    const changes = await listAgentChanges(work);
    last.set(key, mark);
    if (changes.files.length === 0 && changes.commits.length === 0) return;
    await deps.events.emit({
      type: 'git_changes',
      swarm,
      agent,
      message: `Agent ${agent} left ${changes.files.length} changed file(s) and ${changes.commits.length} commit(s).`,
      metadata: {
        files: changes.files.length,
        commits: changes.commits.length,
        uncommitted: changes.uncommitted,
        head: changes.head,
        branch: changes.branch,
      },
    });
  };
  const schedule = (swarm: string, agent: string): void => {
    const key = `${swarm}\0${agent}`;
    if (running.has(key)) return void again.add(key);
    const run = check(swarm, agent)
      .catch((e: unknown) => deps.report(e, swarm, agent))
      .finally(() => {
        running.delete(key);
        if (again.delete(key)) schedule(swarm, agent);
      });
    running.set(key, run);
  };
  return deps.events.subscribe((e: StoredEvent) => {
    if (!TURN_END_EVENTS.has(e.event_type) || e.swarm === null || e.agent === null) return;
    schedule(e.swarm, e.agent);
  });
}
