/**
 * Why an agent failed, in a form an operator acts on: a code, one sentence saying
 * what was missing, where it was looked for and what to do, and the detail fields. The same record goes
 * into the `agent_failed` event, the server log line and the agent status (`failure`).
 */
import { isRunnerError, tailScreenLines, type RunnerHandle } from '@genswarms/runners';
import { failureCode } from '../events/failure-report';

export interface AgentFailure {
  readonly code: string;
  readonly message: string;
  /** Safe-to-show fields (names, the search PATH, an image reference), never env values or secrets. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** The failure of a runner start: the runner's code and sentence; anything else is `start_failed`. */
export function startFailureOf(error: unknown): AgentFailure {
  if (isRunnerError(error)) {
    const code = error.code === 'runner_error' ? 'start_failed' : error.code;
    return { code, message: error.message, details: { ...(error.details ?? {}) } };
  }
  const code = failureCode(error);
  return {
    code: code === 'internal_error' ? 'start_failed' : code,
    message: 'the runner could not start the agent because of an unexpected error; the server log has its detail',
    details: {},
  };
}

/** How long an exit waits for a TUI client's last screen before it is reported without it (ms). */
export const EXIT_SCREEN_WAIT_MS = 1000;

/**
 * A TUI client's last screen lines (bounded, controls neutralised; the runner already replaced secrets), read
 * when it exited; [] for a headless client, or a screen that cannot be read within EXIT_SCREEN_WAIT_MS.
 */
export async function lastScreenLines(handle: RunnerHandle): Promise<readonly string[]> {
  if (handle.captureScreen === undefined) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), EXIT_SCREEN_WAIT_MS);
  });
  // expected: a pane that went with its tmux server cannot be read; the exit is reported without its screen
  const lines = await Promise.race([handle.captureScreen().catch(() => undefined), late]);
  clearTimeout(timer);
  return lines === undefined ? [] : tailScreenLines(lines);
}

/** The client process ended on its own (or was killed): no turn can run until the agent is restarted. */
export function exitFailureOf(reason: string, code: number | null, signal: string | null, lastLines: readonly string[] = []): AgentFailure {
  const failure = exitFailureWithout(reason, code, signal);
  return lastLines.length === 0 ? failure : { ...failure, details: { ...failure.details, last_lines: lastLines } };
}

function exitFailureWithout(reason: string, code: number | null, signal: string | null): AgentFailure {
  if (reason === 'tmux_server_exited')
    return {
      code: reason,
      message:
        "the tmux server holding the agent's pane ended (killed or crashed), taking the client with it; restart the agent or the swarm (a new tmux server is started)",
      details: { exit_code: code, signal },
    };
  if (reason === 'agent_rescheduled')
    return {
      code: reason,
      message:
        "Swarm replaced the agent's task (another task, or the task on another node): its turn in flight was failed, never run twice; restart the agent",
      details: { exit_code: code, signal },
    };
  const how = signal !== null ? `was killed by ${signal}` : `exited with code ${String(code)}`;
  const cause = reason === 'oom_killed' ? ' (its memory cgroup killed it: raise memory_limit)' : '';
  return {
    code: reason,
    message: `the agent's process ${how}${cause}; see its output with genswarms logs, then restart the agent`,
    details: { exit_code: code, signal },
  };
}
