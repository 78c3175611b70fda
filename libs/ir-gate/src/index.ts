/** @genswarms/ir-gate: swarm config schema, IR, fold/materialize/compact, op policy, reconcile, the gate. */
export { SwarmConfigSchema, ObjectSchema, EdgeSchema, OptionsSchema, edgePair } from './lib/config/swarm-schema';
export type { SwarmConfig, ObjectConfig, EdgeConfig } from './lib/config/swarm-schema';
export { AgentSchema, AgentEntrySchema, ENDPOINT_API_NAMES, GitWorkspaceSchema, skillBasename } from './lib/config/agent-schema';
export type { AgentConfig, AgentEntry, GitWorkspaceConfig } from './lib/config/agent-schema';
export { expandAgentCounts } from './lib/config/agent-count';
export { foldAgentCounts } from './lib/config/agent-count-fold';
export { AgentConfigSchema, ENV_KEY_RE, AGENT_FIELDS_IN_CONFIG } from './lib/config/agent-config-schema';
export {
  BackendSchema,
  BACKEND_TYPES,
  TMUX_RUNNERS,
  DEFAULT_BACKEND,
  DEFAULT_DOCKER_IMAGE,
  viewBackend,
} from './lib/config/backend-schema';
export type { BackendType, BackendView } from './lib/config/backend-schema';
export { parseSshTarget, SSH_USER_RE, SSH_HOSTNAME_RE, SSH_TARGET_MAX_CHARS } from './lib/config/ssh-target';
export type { SshTarget, SshTargetParse } from './lib/config/ssh-target';
export { ClientSchema, CLIENT_PRESETS, COMMAND_MAX_WORDS } from './lib/config/client-schema';
export type { ClientInput } from './lib/config/client-schema';
export { NetworkSchema, NETWORK_KEYWORDS, NAMED_NETWORK_RE, normalizeNetwork, isNetworkSupported } from './lib/config/network';
export type { NetworkKeyword, NetworkPlacement } from './lib/config/network';
export { NAME_RE, NameSchema, isName } from './lib/config/names';
export {
  BudgetSchema,
  RateLimitSchema,
  parseIsoDuration,
  llmLimitsOf,
  hasLlmLimits,
  BUDGET_REQUESTS_MAX,
  BUDGET_TOKENS_MAX,
  BUDGET_WINDOW_MIN_MS,
  BUDGET_WINDOW_MAX_MS,
  RATE_REQUESTS_MAX,
  RATE_TOKENS_MAX,
} from './lib/config/llm-limits';
export type { BudgetConfig, RateLimitConfig, LlmLimits } from './lib/config/llm-limits';
export { FORBIDDEN_OBJECT_KEYS, scanUntrusted } from './lib/config/forbidden-keys';
export {
  CONFIG_MAX_BYTES,
  YAML_MAX_BYTES,
  CONFIG_MAX_DEPTH,
  YAML_MAX_ALIAS_COUNT,
  MAX_AGENTS_LIMIT,
  DEFAULT_MAX_AGENTS,
  TURN_TIMEOUT_MAX_MS,
  AGENT_COUNT_MAX,
  EXPANDED_EDGES_MAX,
} from './lib/config/limits';
export { parseConfigText } from './lib/config/parse-text';
export type { ConfigLoad, ConfigFormat, ConfigLoadErrorCode } from './lib/config/parse-text';
export { resolveWorkspace, validateConfig, summarizeConfig } from './lib/config/validate-config';
export type { ConfigSummary, ConfigValidation, ValidateOptions } from './lib/config/validate-config';
export type { ConfigIssue } from './lib/config/types';

export { validateRef, refScheme, isValidRefString, CONTENT_ADDRESSED_SCHEMES, BARE_REFS, DIGEST_RE } from './lib/ref/ref';
export { OP_NAMES, isRecord } from './lib/state/types';
export type {
  IrError,
  Ref,
  ModelSlot,
  IrAgent,
  IrObject,
  Edge,
  SwarmState,
  OpName,
  OverlayEvent,
  SwarmOverlay,
  FoldResult,
} from './lib/state/types';
export { validateState } from './lib/state/validate-state';
export { validateAgent, validateObject } from './lib/state/validate-node';
export { validateOverlay, validateEvent, isOpName, parseOverlayEvent } from './lib/overlay/validate-overlay';
export type {
  OverlayOp,
  ParsedOverlayEvent,
  OverlayEventParse,
  RemoveNodePayload,
  EdgesPayload,
  ScalePayload,
  BumpPayload,
  SetOptionsPayload,
  UpdateConfigPayload,
  OnInflight,
  Migration,
  BumpField,
} from './lib/overlay/overlay-op';
export { fold, materialize, compact } from './lib/fold/fold';
export type { CompactResult } from './lib/fold/fold';
export { scaledInstanceNames, scaleGroupOf } from './lib/fold/scale';
export { configToState, backendToRef } from './lib/convert/config-to-state';
export { stateToConfig } from './lib/convert/state-to-config';

export { HOST_ESCAPE_KEYS, checkOpPolicy, effectiveAgentCap, forbiddenKeysOfAgent } from './lib/policy/policy';
export type { PolicyOptions } from './lib/policy/policy';
export { applyOp, applyOverlay } from './lib/policy/apply-op';
export { planReconcile, isConverged, canonicalJson } from './lib/reconcile/plan';
export type { ReconcileAction } from './lib/reconcile/plan';
export { executeReconcile } from './lib/reconcile/execute';
export type { ReconcilePort, ReconcileOutcome } from './lib/reconcile/execute';
export { gateStart, findUnsupportedNetwork } from './lib/gate/gate-start';
export { findUnenforceableBudget, isBudgetEnforceable } from './lib/gate/budget-enforceable';
export type { UnenforceableBudget } from './lib/gate/budget-enforceable';
export type { GateResult, GateRefusal, GateStartOptions } from './lib/gate/gate-start';
export { mapIrErrorToHttp } from './lib/gate/http-map';
export type { HttpError, HttpErrorBody } from './lib/gate/http-map';
export { generateConfigJsonSchema, CONFIG_JSON_SCHEMA_PATH } from './lib/schema-json/generate';
export { IrGateError } from './lib/errors/ir-gate-error';
export type { IrGateErrorCode } from './lib/errors/ir-gate-error';
