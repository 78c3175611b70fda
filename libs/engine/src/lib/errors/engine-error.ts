/**
 * The engine's one error class. `code` is a closed union of docs/rest-api.md codes; `status` is the HTTP
 * status the server answers with, so routes map an EngineError 1:1 onto an error body (docs/rest-api.md#errors).
 */
export type EngineErrorCode =
  | 'validation_failed'
  | 'invalid_name'
  | 'invalid_config_path'
  | 'config_unreadable'
  | 'config_too_large'
  | 'config_parse_error'
  | 'unsupported_format'
  | 'ir_validation_failed'
  | 'already_exists'
  | 'agent_cap_exceeded'
  | 'forbidden_config_keys'
  | 'unknown_edge_endpoint'
  | 'invalid_count'
  | 'invalid_handler'
  | 'inbox_full'
  | 'patch_too_large'
  | 'object_init_failed'
  | 'invalid_query'
  | 'unsupported_network'
  | 'budget_unenforceable'
  | 'endpoint_not_allowed'
  | 'endpoint_not_configured'
  | 'egress_unavailable'
  | 'unsafe_workspace'
  | 'agent_ids_exhausted'
  | 'host_limit'
  | 'workspace_outside_roots'
  | 'unsafe_bind'
  | 'invalid_argv'
  | 'launch_too_large'
  | 'bypass_requires_opt_in'
  | 'client_endpoint_incompatible'
  | 'remote_engine_unsupported'
  | 'remote_engine_insecure'
  | 'binary_missing'
  | 'image_missing'
  | 'limits_unsupported'
  | 'seccomp_unsupported'
  | 'nix_path_invalid'
  | 'git_not_a_repository'
  | 'git_ref_unresolved'
  | 'swarm_not_found'
  | 'agent_not_found'
  | 'object_not_found'
  | 'turn_not_found'
  | 'not_found'
  | 'no_git_workspace'
  | 'agent_not_ready'
  | 'needs_attention'
  | 'invalid_state'
  | 'no_config_schema'
  | 'immutable_keys'
  | 'runner_error'
  | 'git_failed'
  | 'storage_full'
  | 'store_refused'
  | 'internal_error';

const STATUS_BY_CODE: Readonly<Record<EngineErrorCode, number>> = {
  validation_failed: 400,
  invalid_name: 400,
  invalid_config_path: 400,
  config_unreadable: 400,
  config_too_large: 400,
  config_parse_error: 400,
  unsupported_format: 400,
  ir_validation_failed: 400,
  already_exists: 400,
  agent_cap_exceeded: 400,
  forbidden_config_keys: 400,
  unknown_edge_endpoint: 400,
  invalid_count: 400,
  invalid_handler: 400,
  inbox_full: 400,
  patch_too_large: 400,
  object_init_failed: 400,
  invalid_query: 400,
  unsupported_network: 400,
  budget_unenforceable: 400,
  endpoint_not_allowed: 400,
  endpoint_not_configured: 400,
  egress_unavailable: 400,
  unsafe_workspace: 400,
  workspace_outside_roots: 400,
  unsafe_bind: 400,
  invalid_argv: 400,
  launch_too_large: 400,
  bypass_requires_opt_in: 400,
  client_endpoint_incompatible: 400,
  remote_engine_unsupported: 400,
  remote_engine_insecure: 400,
  binary_missing: 400,
  image_missing: 400,
  limits_unsupported: 400,
  seccomp_unsupported: 400,
  nix_path_invalid: 400,
  git_not_a_repository: 400,
  git_ref_unresolved: 400,
  swarm_not_found: 404,
  agent_not_found: 404,
  object_not_found: 404,
  turn_not_found: 404,
  not_found: 404,
  no_git_workspace: 404,
  agent_not_ready: 409,
  needs_attention: 409,
  invalid_state: 409,
  no_config_schema: 422,
  immutable_keys: 422,
  runner_error: 500,
  // reading or taking an agent's git work failed (a broken clone, a branch naming missing objects, the operator's branch checked out)
  git_failed: 500,
  // every id of GENSWARMS_AGENT_UID_RANGE is held (or still has processes): a purge or a larger range frees one
  agent_ids_exhausted: 503,
  // a host limit (kernel.pid_max, ulimit -n, …) the agents would exceed: 503 like agent_ids_exhausted (a host
  // resource, not storage: 507 stays storage_full); the body's `fix` names the sysctl or ulimit to raise
  host_limit: 503,
  // 507 Insufficient Storage (RFC 4918): the server cannot store what the request needs; retry after space is freed.
  storage_full: 507,
  // Never an HTTP answer: Engine.open refuses a corrupt, foreign or newer genswarms.db (the server exits 3).
  store_refused: 500,
  internal_error: 500,
};

/** The plan codes a runner may refuse with (docs/rest-api.md "runner plan"); each carries `agent`. */
export const PLAN_ERROR_CODES: readonly EngineErrorCode[] = [
  'unsupported_network',
  'budget_unenforceable',
  'endpoint_not_allowed',
  'endpoint_not_configured',
  'egress_unavailable',
  'unsafe_workspace',
  'workspace_outside_roots',
  'unsafe_bind',
  'invalid_argv',
  'launch_too_large',
  'bypass_requires_opt_in',
  'client_endpoint_incompatible',
  'remote_engine_unsupported',
  'remote_engine_insecure',
  'binary_missing',
  'image_missing',
  'limits_unsupported',
  'seccomp_unsupported',
  'nix_path_invalid',
  'git_not_a_repository',
  'git_ref_unresolved',
];

/** Detail fields of an error body (never host paths, tokens or file contents). */
export type EngineErrorDetails = Readonly<Record<string, unknown>>;

export function isEngineErrorCode(value: unknown): value is EngineErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(STATUS_BY_CODE, value);
}

export function statusForCode(code: EngineErrorCode): number {
  return STATUS_BY_CODE[code];
}

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  /** HTTP status (docs/rest-api.md); `forbidden_config_keys` is 422 on object PATCH, 400 elsewhere. */
  readonly status: number;
  readonly details: EngineErrorDetails;

  constructor(code: EngineErrorCode, message: string, details: EngineErrorDetails = {}, opts: { status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    Object.defineProperty(this, 'name', { value: 'EngineError', enumerable: false });
    this.code = code;
    this.status = opts.status ?? STATUS_BY_CODE[code];
    this.details = details;
  }

  /** The error body: `{error, message, ...details}`. */
  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.details };
  }
}
