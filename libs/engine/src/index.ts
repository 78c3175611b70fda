/** @genswarms/engine: Swarms, sessions, turns, routing, events, SQLite store, recovery. */
export { Engine } from './lib/swarms/engine';
export type {
  AgentRestarted,
  AgentGitDiff,
  AgentResumed,
  GitWorkFetched,
  EventPage,
  MessageRouted,
  NodeAdded,
  NodeRemoved,
  ObjectConfigUpdated,
  ObjectDetail,
  OverlayCleared,
  OverlayView,
  ScaleResult,
  SkillDocument,
  SwarmCreated,
  SwarmRestarted,
  SwarmService,
  SwarmStopped,
  TaskSent,
  TopologyPatched,
} from './lib/service/swarm-service';
export {
  AddAgentCommandSchema,
  AddObjectCommandSchema,
  COMMAND_SCHEMAS,
  EmptyCommandSchema,
  EventQueryCommandSchema,
  EventsCommandSchema,
  JoinCommandSchema,
  LogsCommandSchema,
  MessageCommandSchema,
  ObjectConfigPatchCommandSchema,
  ScaleCommandSchema,
  SocketTaskCommandSchema,
  StartSwarmCommandSchema,
  TaskCommandSchema,
  TopologyPatchCommandSchema,
} from './lib/commands/command-schemas';
export { ACK_SCHEMAS, ANSWER_SCHEMAS, AckFailureSchema, ErrorBodySchema, PUSH_SCHEMAS } from './lib/commands/answer-schemas';
export type {
  AddAgentCommand,
  AddObjectCommand,
  Edge,
  MessageCommand,
  ObjectConfigPatchCommand,
  ScaleCommand,
  TaskCommand,
  TopologyPatch,
  TopologyPatchCommand,
} from './lib/commands/command-schemas';
export {
  invalidQuery,
  issuesOf,
  parseAddAgentCommand,
  parseAddObjectCommand,
  parseLimitParam,
  parseMessageCommand,
  parseObjectConfigPatchCommand,
  parseScaleCommand,
  parseSnapshotFormat,
  parseStartCommand,
  parseTaskCommand,
  parseTopologyPatchCommand,
  parseWith,
} from './lib/commands/parse-command';
export type { CommandIssue, SnapshotFormat } from './lib/commands/parse-command';
export { BudgetPatchCommandSchema, LlmRequestEntrySchema, LlmUsageSchema, parseBudgetPatchCommand } from './lib/commands/llm-schemas';
export type { BudgetPatchCommand, BudgetUpdated, LlmRequestList } from './lib/commands/llm-schemas';
export { ESTIMATED_BYTES_PER_TOKEN, LlmMeter } from './lib/llm/llm-meter';
export type { LlmCallListener, LlmCallRecord } from './lib/llm/llm-meter';
export { RATE_LIMITED_EVENT_EVERY_MS } from './lib/llm/llm-events';
export { LLM_AUDIT_KEEP } from './lib/store/llm-usage';
export type { LlmRequestEntry, LlmUsageTotals } from './lib/store/llm-usage';
export type { EngineOptions } from './lib/swarms/engine-deps';
export type { EngineLog, FailureSite } from './lib/events/failure-report';
export type { StartInput } from './lib/swarms/config-input';
export type { AgentStatus, ObjectStatus, SwarmDetail, SwarmSummary } from './lib/swarms/status';
export type { TurnDetail, TurnView } from './lib/swarms/agent-ops';
export { HISTORY_DEFAULT, HISTORY_MAX } from './lib/swarms/agent-history';
export type { HistoryEntry, ReceivedEntry, SentEntry } from './lib/swarms/agent-history';
export { isDockerBacked } from './lib/swarms/swarm-pause';
export type { PauseResult, SwarmPauser } from './lib/swarms/swarm-pause';
export type { Snapshot } from './lib/swarms/object-ops';
export type { LogLine } from './lib/agents/agent-session';
export { OPERATOR_FROM } from './lib/agents/session-host';
export { TURN_CANCELLED_ERROR } from './lib/agents/host-receipt';

export { EngineError, PLAN_ERROR_CODES, isEngineErrorCode, statusForCode } from './lib/errors/engine-error';
export type { EngineErrorCode, EngineErrorDetails } from './lib/errors/engine-error';

export { SqliteStore, DB_FILE_NAME } from './lib/store/sqlite-store';
export { INBOX_LIMIT, MESSAGE_LOG_KEEP, EVENTS_KEEP } from './lib/store/store';
export type {
  AttentionInfo,
  DispatchRequest,
  EnqueueResult,
  EventCategory,
  EventLevel,
  EventQuery,
  InboxItemRow,
  ItemKind,
  MessageRow,
  NewEvent,
  ObjectStateRow,
  OverlayEventRow,
  SessionRow,
  SessionState,
  Store,
  StoredEvent,
  SwarmHead,
  SwarmRow,
  SwarmStatus,
  TurnFinish,
  TurnRow,
  TurnStatus,
} from './lib/store/store';

export { EventBus, toLogEntry, sanitizeMetadata } from './lib/events/event-bus';
export type { EmitInput, EventListener, LogEntry } from './lib/events/event-bus';
export { parseEventQuery, parseEventFilters, eventMatches, matchesAnyFilter, EVENT_QUERY_PARAMS } from './lib/events/event-query';
export type { EventFilterSet, EventQueryInput, ParsedEventQuery } from './lib/events/event-query';
export { EVENT_CATEGORIES, levelForEventType, isEventType } from './lib/events/event-types';
export type { EventType } from './lib/events/event-types';
export { PushHub } from './lib/events/pushes';
export type { EnginePush, PushListener, TopologyEntry } from './lib/events/pushes';

export { extractMarkers } from './lib/routing/markers';
export type { ExtractedMarkers, MarkerBlock } from './lib/routing/markers';
export { classifyOutboxMessage, drainOutbox, OUTBOX_FILE_MAX_BYTES } from './lib/routing/outbox';
export type { OutboxMessage, OutboxEntry, OutboxDrain } from './lib/routing/outbox';
export { CORRELATION_ID_RE, isCorrelationId } from './lib/routing/asks';
export type { AskEnvelope } from './lib/routing/asks';
export { SYSTEM_OBJECT_NAMES } from './lib/routing/topology';

export { HandlerRegistry } from './lib/objects/handler';
export type { AskResult, ConfigKeySpec, MessageResult, ObjectHandler, ObjectMessage, OutgoingSend } from './lib/objects/handler';
export { BUILTIN_HANDLERS, createHandlerRegistry } from './lib/objects/builtins';
export { PATCH_MAX_KEYS } from './lib/objects/config-patch';
export { OBJECT_STATE_MAX_BYTES, encodeObjectState, parseObjectState } from './lib/objects/object-state';
export type { DecodedObjectState, EncodedObjectState } from './lib/objects/object-state';

export { SKILL_MAX_BYTES, isSkillName, listSkills, readSkill } from './lib/skills/skills-catalogue';
export type { SkillEntry, SkillRead } from './lib/skills/skills-catalogue';

export { SYSTEM_CLOCK } from './lib/util/clock';
export type { Clock, TimerHandle } from './lib/util/clock';
export const PACKAGE_NAME = '@genswarms/engine';
export { parseGitFetchCommand } from './lib/git/git-schemas';
export type { GitFetchCommand } from './lib/git/git-schemas';
