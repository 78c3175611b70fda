/**
 * A TUI client that waits for a person (docs/clients.md "Pane mode"): a dialog on its screen, a paste it never
 * showed or an Enter it did not take, no ready prompt after its start. The agent goes to `needs_attention` with
 * reason `client_prompt_blocked` and what the screen showed; the operator answers in the pane (`genswarms attach
 * --write`), then resumes, or restarts the agent.
 */
import { isRunnerError, type ClientReadiness, type RunnerHandle } from '@genswarms/runners';
import type { AttentionDetails, AttentionInfo } from '../store/store';

export const CLIENT_PROMPT_BLOCKED = 'client_prompt_blocked';

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

/**
 * The `agent_needs_attention` event of a hold: `hold` (a client that waits, an isolation mismatch) describes what
 * the screen showed; `rejected` (a refused receipt) names the reason only.
 */
export function attentionEvent(
  agent: string,
  attention: AttentionInfo,
  wording: 'hold' | 'rejected',
): { readonly message: string; readonly metadata: Record<string, unknown> } {
  if (wording === 'rejected')
    return {
      message: `Agent ${agent} needs attention (${attention.reason}).`,
      metadata: { turn: attention.turn, reason: attention.reason },
    };
  return {
    message: `Agent ${agent} needs attention (${attention.reason})${describe(attention.details)}.`,
    metadata: { reason: attention.reason, turn: attention.turn, ...(attention.details ?? {}) },
  };
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
