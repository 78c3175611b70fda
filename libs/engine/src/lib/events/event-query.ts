/** CONTRACT §17 query parameters and §16 filter sets, validated into typed values (`invalid_query` + `param`). */
import { NAME_RE } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { EventCategory, EventLevel, EventQuery, StoredEvent } from '../store/store';
import { EVENT_CATEGORY_NAMES, EVENT_LEVELS } from './event-types';

export const EVENT_TYPE_RE = /^[a-z][a-z0-9_]{0,63}$/;
const DIGITS_RE = /^[0-9]{1,15}$/;
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

function single(param: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isInteger(raw)) return String(raw);
  if (typeof raw !== 'string') throw invalid(param, 'expected a single value');
  return raw;
}

function intParam(param: string, raw: unknown, min: number, max: number): number | undefined {
  const text = single(param, raw);
  if (text === undefined) return undefined;
  if (!DIGITS_RE.test(text)) throw invalid(param, `expected an integer ${min}-${max}`);
  const n = Number(text);
  if (n < min || n > max) throw invalid(param, `expected an integer ${min}-${max}`);
  return n;
}

function enumParam<T extends string>(param: string, raw: unknown, values: readonly T[]): T | undefined {
  const text = single(param, raw);
  if (text === undefined) return undefined;
  const found = values.find((v) => v === text);
  if (found === undefined) throw invalid(param, `expected one of ${values.join(', ')}`);
  return found;
}

function patternParam(param: string, raw: unknown, re: RegExp): string | undefined {
  const text = single(param, raw);
  if (text === undefined) return undefined;
  if (!re.test(text)) throw invalid(param, 'malformed value');
  return text;
}

export function parseEventQuery(raw: EventQueryInput): ParsedEventQuery {
  const out: { -readonly [K in keyof ParsedEventQuery]: ParsedEventQuery[K] } = { limit: 100 };
  const level = enumParam('level', raw.level, EVENT_LEVELS);
  const category = enumParam('category', raw.category, EVENT_CATEGORY_NAMES);
  const swarm = patternParam('swarm', raw.swarm, NAME_RE);
  const agent = patternParam('agent', raw.agent, NAME_RE);
  const eventType = patternParam('event_type', raw.event_type, EVENT_TYPE_RE);
  const minutes = intParam('minutes', raw.minutes, 1, 525600);
  const limit = intParam('limit', raw.limit, 1, 1000);
  const sinceId = intParam('since_id', raw.since_id, 0, Number.MAX_SAFE_INTEGER);
  if (level !== undefined) out.level = level;
  if (category !== undefined) out.category = category;
  if (swarm !== undefined) out.swarm = swarm;
  if (agent !== undefined) out.agent = agent;
  if (eventType !== undefined) out.event_type = eventType;
  if (minutes !== undefined) out.minutes = minutes;
  if (limit !== undefined) out.limit = limit;
  if (sinceId !== undefined) out.since_id = sinceId;
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

/** A §16 subscription filter set: each present key must equal the event's field; `{}` matches all. */
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
