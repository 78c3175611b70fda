/** docs/observability.md query parameters and subscription filter sets, validated into typed values (`invalid_query` + `param`). */
import { EventQueryCommandSchema } from '../commands/command-schemas';
import { EngineError } from '../errors/engine-error';
import type { EventCategory, EventLevel, EventQuery, StoredEvent } from '../store/store';

export const EVENT_QUERY_PARAMS = ['level', 'category', 'swarm', 'agent', 'event_type', 'minutes', 'limit', 'since_id'] as const;

export interface EventQueryInput {
  readonly level?: unknown;
  readonly category?: unknown;
  readonly swarm?: unknown;
  readonly agent?: unknown;
  readonly event_type?: unknown;
  readonly minutes?: unknown;
  readonly limit?: unknown;
  readonly since_id?: unknown;
}

/** Echo of the accepted query (the `/api/events` body's `query`). */
export interface ParsedEventQuery {
  readonly level?: EventLevel;
  readonly category?: EventCategory;
  readonly swarm?: string;
  readonly agent?: string;
  readonly event_type?: string;
  readonly minutes?: number;
  readonly limit: number;
  readonly since_id?: number;
}

function invalid(param: string, why: string): EngineError {
  return new EngineError('invalid_query', `Invalid query parameter ${param}: ${why}.`, { param });
}

/** Parses with `EventQueryCommandSchema`; the first refused parameter (in the order above) is 400 `invalid_query` + `param`. */
export function parseEventQuery(raw: EventQueryInput): ParsedEventQuery {
  const picked: Record<string, unknown> = {};
  for (const key of EVENT_QUERY_PARAMS) if (raw[key] !== undefined) picked[key] = raw[key];
  const parsed = EventQueryCommandSchema.safeParse(picked);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalid(String(first?.path[0] ?? 'query'), first?.message ?? 'malformed value');
  }
  const out: { -readonly [K in keyof ParsedEventQuery]: ParsedEventQuery[K] } = { limit: parsed.data.limit ?? 100 };
  for (const key of EVENT_QUERY_PARAMS) {
    const value = parsed.data[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export function toStoreQuery(q: ParsedEventQuery, now: Date): EventQuery {
  return {
    ...(q.level === undefined ? {} : { level: q.level }),
    ...(q.category === undefined ? {} : { category: q.category }),
    ...(q.swarm === undefined ? {} : { swarm: q.swarm }),
    ...(q.agent === undefined ? {} : { agent: q.agent }),
    ...(q.event_type === undefined ? {} : { eventType: q.event_type }),
    ...(q.minutes === undefined ? {} : { sinceTime: new Date(now.getTime() - q.minutes * 60_000).toISOString() }),
    ...(q.since_id === undefined ? {} : { sinceId: q.since_id }),
    limit: q.limit,
  };
}

/** A subscription filter set: each present key must equal the event's field; `{}` matches all. */
export interface EventFilterSet {
  readonly level?: EventLevel;
  readonly category?: EventCategory;
  readonly event_type?: string;
  readonly agent?: string;
}

const FILTER_KEYS = new Set(['level', 'category', 'event_type', 'agent']);

export function parseEventFilters(raw: unknown): EventFilterSet {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('filters', 'expected an object');
  const rec = raw as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    if (!FILTER_KEYS.has(key)) throw invalid(key, 'unknown filter');
  }
  const q = parseEventQuery({ level: rec['level'], category: rec['category'], event_type: rec['event_type'], agent: rec['agent'] });
  return {
    ...(q.level === undefined ? {} : { level: q.level }),
    ...(q.category === undefined ? {} : { category: q.category }),
    ...(q.event_type === undefined ? {} : { event_type: q.event_type }),
    ...(q.agent === undefined ? {} : { agent: q.agent }),
  };
}

export function eventMatches(event: StoredEvent, set: EventFilterSet): boolean {
  if (set.level !== undefined && set.level !== event.level) return false;
  if (set.category !== undefined && set.category !== event.category) return false;
  if (set.event_type !== undefined && set.event_type !== event.event_type) return false;
  if (set.agent !== undefined && set.agent !== event.agent) return false;
  return true;
}

/** Pushed once when any registered set matches. */
export function matchesAnyFilter(event: StoredEvent, sets: readonly EventFilterSet[]): boolean {
  return sets.some((s) => eventMatches(event, s));
}
