import * as lib from './index';

const PINNED = [
  'BUILTIN_HANDLERS', 'CORRELATION_ID_RE', 'DB_FILE_NAME', 'EVENTS_KEEP', 'EVENT_CATEGORIES', 'EVENT_QUERY_PARAMS', 'Engine',
  'EngineError', 'EventBus', 'HISTORY_DEFAULT', 'HISTORY_MAX', 'HandlerRegistry', 'INBOX_LIMIT', 'MESSAGE_LOG_KEEP', 'OPERATOR_FROM', 'OUTBOX_FILE_MAX_BYTES',
  'PACKAGE_NAME', 'PATCH_MAX_KEYS', 'PLAN_ERROR_CODES', 'PushHub', 'SKILL_MAX_BYTES', 'SYSTEM_CLOCK', 'SYSTEM_OBJECT_NAMES', 'SqliteStore',
  'classifyOutboxMessage', 'createHandlerRegistry', 'eventMatches', 'extractMarkers', 'isCorrelationId', 'isEngineErrorCode',
  'isDockerBacked', 'isEventType', 'isSkillName', 'listSkills', 'readSkill', 'levelForEventType', 'matchesAnyFilter', 'parseEventFilters', 'parseEventQuery', 'sanitizeMetadata',
  'statusForCode', 'toLogEntry', 'TURN_CANCELLED_ERROR', 'OBJECT_STATE_MAX_BYTES', 'encodeObjectState', 'parseObjectState',
  // command schemas and their edge parsers (one place for HTTP and socket.io)
  'AddAgentCommandSchema', 'AddObjectCommandSchema', 'COMMAND_SCHEMAS', 'EmptyCommandSchema', 'EventQueryCommandSchema', 'EventsCommandSchema', 'JoinCommandSchema',
  'LogsCommandSchema', 'MessageCommandSchema', 'ObjectConfigPatchCommandSchema', 'ScaleCommandSchema', 'SocketTaskCommandSchema',
  'StartSwarmCommandSchema', 'TaskCommandSchema', 'TopologyPatchCommandSchema', 'invalidQuery', 'issuesOf', 'parseAddAgentCommand',
  'parseAddObjectCommand', 'parseLimitParam', 'parseMessageCommand', 'parseObjectConfigPatchCommand', 'parseScaleCommand',
  'parseSnapshotFormat', 'parseStartCommand', 'parseTaskCommand', 'parseTopologyPatchCommand', 'parseWith',
];

describe('@genswarms/engine public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual([...PINNED].sort());
  });
});
