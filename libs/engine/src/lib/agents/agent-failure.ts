/**
 * Why an agent failed, in a form an operator acts on (issue 12, defect 4): a code, one sentence saying
 * what was missing, where it was looked for and what to do, and the detail fields. The same record goes
 * into the `agent_failed` event, the server log line and the agent status (`failure`).
 */
import { isRunnerError } from '@genswarms/runners';
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

/** The client process ended on its own (or was killed): no turn can run until the agent is restarted. */
export function exitFailureOf(reason: string, code: number | null, signal: string | null): AgentFailure {
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
