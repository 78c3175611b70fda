/** Row <-> record mapping for the SQLite store (columns are snake_case, records camelCase). */
import type {
  EventCategory,
  EventLevel,
  InboxItemRow,
  ItemKind,
  MessageRow,
  ObjectStateRow,
  OverlayEventRow,
  SessionRow,
  SessionState,
  StoredEvent,
  SwarmRow,
  SwarmStatus,
  TurnRow,
  TurnStatus,
} from './store';

export type Raw = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v));
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  return JSON.parse(text) as unknown;
}

export function toSwarm(r: Raw): SwarmRow {
  return {
    name: str(r['name']),
    config: parseJson(r['config']),
    baseDir: strOrNull(r['base_dir']),
    status: str(r['status']) as SwarmStatus,
    startedAt: strOrNull(r['started_at']),
    stoppedAt: strOrNull(r['stopped_at']),
  };
}

export function toSession(r: Raw): SessionRow {
  const reason = strOrNull(r['attention_reason']);
  return {
    swarm: str(r['swarm']),
    agent: str(r['agent']),
    state: str(r['state']) as SessionState,
    needsAttention: reason === null ? null : { reason, turn: strOrNull(r['attention_turn']) },
    description: parseJson(r['description']),
    workspace: strOrNull(r['workspace']),
    startedAt: strOrNull(r['started_at']),
    lastActivity: strOrNull(r['last_activity']),
  };
}

/**
 * The columns `toTurn` reads: every turns column but `reply` (up to 1 MiB each), which only
 * `getTurnReply` selects — lists of turns never carry whole replies.
 */
export const TURN_COLUMNS =
  'id, swarm, agent, item_id, kind, "from", content, seq, status, reason, error, started_at, completed_at, reply_preview, timed_out, received_at, delivered';

export function toTurn(r: Raw): TurnRow {
  return {
    id: str(r['id']),
    swarm: str(r['swarm']),
    agent: str(r['agent']),
    itemId: str(r['item_id']),
    kind: str(r['kind']) as ItemKind,
    from: str(r['from']),
    content: str(r['content']),
    seq: num(r['seq']),
    status: str(r['status']) as TurnStatus,
    reason: strOrNull(r['reason']),
    error: strOrNull(r['error']),
    startedAt: str(r['started_at']),
    completedAt: strOrNull(r['completed_at']),
    replyPreview: strOrNull(r['reply_preview']),
    timedOut: num(r['timed_out']) === 1,
    receivedAt: strOrNull(r['received_at']),
    delivered: num(r['delivered']) === 1,
  };
}

export function toItem(r: Raw): InboxItemRow {
  return {
    id: str(r['id']),
    swarm: str(r['swarm']),
    agent: str(r['agent']),
    kind: str(r['kind']) as ItemKind,
    from: str(r['from']),
    content: str(r['content']),
    createdAt: str(r['created_at']),
  };
}

export function toOverlay(r: Raw): OverlayEventRow {
  return {
    swarm: str(r['swarm']),
    seq: num(r['seq']),
    op: str(r['op']),
    payload: (parseJson(r['payload']) ?? {}) as Record<string, unknown>,
    timestamp: str(r['timestamp']),
  };
}

export function toMessage(r: Raw): MessageRow {
  const to = parseJson(r['to']) as string | string[];
  return {
    id: num(r['id']),
    timestamp: str(r['timestamp']),
    swarm: str(r['swarm']),
    from: str(r['from']),
    to,
    type: str(r['type']) as MessageRow['type'],
    content_preview: str(r['content_preview']),
    turn: strOrNull(r['turn']),
  };
}

export function toEvent(r: Raw): StoredEvent {
  return {
    id: num(r['id']),
    timestamp: str(r['timestamp']),
    level: str(r['level']) as EventLevel,
    category: str(r['category']) as EventCategory,
    swarm: strOrNull(r['swarm']),
    agent: strOrNull(r['agent']),
    event_type: str(r['event_type']),
    message: str(r['message']),
    metadata: (parseJson(r['metadata']) ?? {}) as Record<string, unknown>,
  };
}

export function toObjectState(r: Raw): ObjectStateRow {
  return {
    swarm: str(r['swarm']),
    object: str(r['object']),
    handler: str(r['handler']),
    // Text as stored; a non-text value (a hostile row) is handed on as '' and fails to parse later.
    stateJson: typeof r['state'] === 'string' ? r['state'] : '',
    updatedAt: str(r['updated_at']),
  };
}
