/** Every refusal and failure of a runner. Callers branch on `.code`, never on `.message`. */
export type RunnerErrorCode =
  | 'unsupported_network'
  | 'endpoint_not_allowed'
  | 'endpoint_not_configured'
  | 'egress_unavailable'
  | 'unsafe_workspace'
  | 'workspace_outside_roots'
  | 'unsafe_bind'
  | 'invalid_argv'
  | 'launch_too_large'
  | 'bypass_requires_opt_in'
  | 'client_endpoint_incompatible'
  | 'remote_engine_unsupported'
  | 'validation_failed'
  | 'binary_missing'
  | 'image_missing'
  | 'state_dir_unsafe'
  | 'start_failed'
  | 'pty_unavailable'
  | 'limits_unsupported'
  | 'seccomp_unsupported'
  | 'nix_path_invalid'
  | 'ssh_host_key_unknown'
  | 'ssh_host_key_mismatch'
  | 'ssh_host_key_revoked'
  | 'ssh_known_hosts_unreadable'
  | 'ssh_key_unsafe'
  | 'ssh_auth_failed'
  | 'ssh_unreachable'
  | 'ssh_disconnected'
  | 'ssh_remote_unsafe'
  | 'remote_path_invalid'
  | 'remote_transport_failed'
  | 'remote_engine_insecure'
  | 'swarm_node_unreachable'
  | 'agent_rescheduled'
  | 'client_prompt_blocked'
  | 'git_not_a_repository'
  | 'git_ref_unresolved'
  | 'git_failed'
  | 'runner_error';

export interface RunnerErrorOptions {
  readonly agent?: string;
  /** Safe-to-show details (names, host names, counts) — never env values, keys or tokens. */
  readonly details?: Record<string, unknown>;
  readonly cause?: unknown;
}

export class RunnerError extends Error {
  readonly code: RunnerErrorCode;
  readonly agent?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: RunnerErrorCode, message: string, opts: RunnerErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    Object.defineProperty(this, 'name', { value: 'RunnerError', enumerable: false, configurable: true });
    this.code = code;
    if (opts.agent !== undefined) this.agent = opts.agent;
    if (opts.details !== undefined) this.details = opts.details;
  }
}

/** True for a RunnerError (also across module copies, by shape). */
export function isRunnerError(value: unknown): value is RunnerError {
  return value instanceof RunnerError;
}
