/** @genswarms/engine: Swarms, sessions, turns, routing, events, SQLite store, recovery. */
export { EngineError, PLAN_ERROR_CODES, isEngineErrorCode, statusForCode } from './lib/errors/engine-error';
export type { EngineErrorCode, EngineErrorDetails } from './lib/errors/engine-error';
export { SqliteStore, DB_FILE_NAME } from './lib/store/sqlite-store';
export { INBOX_LIMIT, MESSAGE_LOG_KEEP, EVENTS_KEEP } from './lib/store/store';
export type {
  AttentionInfo, DispatchRequest, EnqueueResult, EventCategory, EventLevel, EventQuery, InboxItemRow, ItemKind,
  MessageRow, NewEvent, OverlayEventRow, SessionRow, SessionState, Store, StoredEvent, SwarmRow, SwarmStatus,
  TurnFinish, TurnRow, TurnStatus,
} from './lib/store/store';
export const PACKAGE_NAME = '@genswarms/engine';
