/**
 * A TUI client that waits for a person (docs/clients.md "Pane mode"): a dialog on its screen, a paste it never
 * showed or an Enter it did not take, no ready prompt after its start. The agent goes to `needs_attention` with
 * reason `client_prompt_blocked` and what the screen showed; the operator answers in the pane (`genswarms attach
 * --write`), then resumes, or restarts the agent.
 */
import { isRunnerError, type ClientReadiness, type RunnerHandle } from '@genswarms/runners';
import type { AttentionDetails, AttentionInfo, SessionState } from '../store/store';
import type { CorePorts } from '../util/core-ports';

export const CLIENT_PROMPT_BLOCKED = 'client_prompt_blocked';

/** What holding an agent for its client needs of the session. */
export interface AttentionHost extends Pick<CorePorts, 'events' | 'pushes'> {
  readonly name: string;
  readonly swarm: string;
  readonly state: SessionState;
  setState(state: SessionState, attention?: AttentionInfo | null): Promise<void>;
}

/** The attention for a start that did not end ready; null when the client is ready, gone, or the wait was dropped. */
export function attentionOfReadiness(readiness: ClientReadiness): AttentionInfo | null {
  switch (readiness.kind) {
    case 'blocked':
      return blocked(null, { dialog: readiness.dialog, stage: 'not_ready', last_lines: readiness.lastLines });
    case 'timeout':
      return blocked(null, { stage: 'not_ready', last_lines: readiness.lastLines });
    case 'ready':
    case 'exited':
    case 'aborted':
      return null;
  }
}

/** The attention for a delivery the runner refused with `client_prompt_blocked`; null for any other failure. */
export function attentionOfDeliveryError(error: unknown, turn: string): AttentionInfo | null {
  if (!isRunnerError(error) || error.code !== 'client_prompt_blocked') return null;
  const d = error.details ?? {};
  const lines = Array.isArray(d['last_lines']) ? d['last_lines'].filter((l): l is string => typeof l === 'string') : [];
  return blocked(turn, {
    ...(typeof d['dialog'] === 'string' ? { dialog: d['dialog'] } : {}),
    ...(typeof d['stage'] === 'string' ? { stage: d['stage'] } : {}),
    last_lines: lines,
  });
}

export function blocked(turn: string | null, details: AttentionDetails): AttentionInfo {
  return { reason: CLIENT_PROMPT_BLOCKED, turn, details };
}

/** The agent waits for its operator: state, one `agent_needs_attention` event with the details, the push. */
export async function holdForAttention(host: AttentionHost, attention: AttentionInfo): Promise<void> {
  await host.setState('needs_attention', attention);
  await host.events.emit({
    type: 'agent_needs_attention',
    swarm: host.swarm,
    agent: host.name,
    message: `Agent ${host.name} needs attention (${attention.reason})${describe(attention.details)}.`,
    metadata: { reason: attention.reason, turn: attention.turn, ...(attention.details ?? {}) },
  });
  host.pushes.push(host.swarm, { type: 'needs_attention', payload: { agent: host.name, turn: attention.turn, reason: attention.reason } });
}

function describe(details: AttentionDetails | undefined): string {
  if (details?.dialog !== undefined) return `: its client shows a dialog (${details.dialog}); answer it in the pane, then resume`;
  if (details?.stage === 'not_ready') return ': its client never showed its ready prompt';
  if (details?.stage !== undefined) return `: its client did not take the pasted turn (${details.stage})`;
  return '';
}

/** A session's wait for its client's ready screen (bounded per client by the runner), abortable by a stop. */
export class ClientReadyWait {
  private wait: AbortController | null = null;

  /** Null: ready, gone, aborted, or a handle without the wait; a wait that throws is reported and counts as ready. */
  async run(handle: RunnerHandle | null, report: (error: unknown) => Promise<void>): Promise<AttentionInfo | null> {
    if (handle?.waitUntilReady === undefined) return null;
    const wait = new AbortController();
    this.wait = wait;
    try {
      return attentionOfReadiness(await handle.waitUntilReady(wait.signal));
    } catch (e) {
      await report(e);
      return null;
    } finally {
      if (this.wait === wait) this.wait = null;
    }
  }

  abort(): void {
    this.wait?.abort();
  }
}
