/**
 * One event per transition: leveled, categorised, redacted, persisted, then pushed to every
 * subscriber. Subscribers never throw into the engine.
 */
import { redactSecrets } from '@genswarms/security';
import type { EventAlong, EventLevel, NewEvent, Store, StoredEvent } from '../store/store';
import type { Clock } from '../util/clock';
import { contentPreview } from '../util/preview';
import { parseEventQuery, toStoreQuery, type EventQueryInput, type ParsedEventQuery } from './event-query';
import { categoryForEventType, levelForEventType, type EventType } from './event-types';
import { failureCode, failureLogMeta, STDERR_LOG, type EngineLog, type FailureInput } from './failure-report';

export interface EmitInput {
  readonly type: EventType;
  readonly swarm: string | null;
  readonly agent: string | null;
  readonly message: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Overrides the level derived from the type (e.g. `swarm_started` after a partial start → warning). */
  readonly level?: EventLevel;
}

export type EventListener = (event: StoredEvent) => void;

/** The `log_entry` push (docs/websocket.md). */
export interface LogEntry {
  readonly id: number;
  readonly timestamp: string;
  readonly level: EventLevel;
  readonly agent: string | null;
  readonly event_type: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export function toLogEntry(e: StoredEvent): LogEntry {
  return {
    id: e.id,
    timestamp: e.timestamp,
    level: e.level,
    agent: e.agent,
    event_type: e.event_type,
    message: e.message,
    metadata: e.metadata,
  };
}

const FULL_CONTENT_KEYS = new Set(['content', 'reply', 'reply_text', 'env', 'token', 'api_key']);

/** Redacts secrets, drops full contents and caps `content_preview` at 100 characters. */
export function sanitizeMetadata(metadata: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(redactSecrets(metadata))) {
    if (FULL_CONTENT_KEYS.has(key)) continue;
    out[key] = key === 'content_preview' && typeof value === 'string' ? contentPreview(value) : value;
  }
  return out;
}

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log: EngineLog = STDERR_LOG,
  ) {}

  async emit(input: EmitInput): Promise<StoredEvent> {
    const event = await this.store.insertEvent(this.row(input));
    this.notify(event);
    return event;
  }

  /** The stored form of `input`: leveled, categorised, metadata redacted (as `emit` writes it). */
  private row(input: EmitInput): NewEvent {
    return {
      timestamp: this.clock.now().toISOString(),
      level: input.level ?? levelForEventType(input.type),
      category: categoryForEventType(input.type),
      swarm: input.swarm,
      agent: input.agent,
      event_type: input.type,
      message: input.message,
      metadata: sanitizeMetadata(input.metadata ?? {}),
    };
  }

  /**
   * An event to be written by a store write, in its transaction (`EventAlong`): `input` is called there with
   * the write's result and answers the event (or null for none). Once the write returned, `announce` gives the
   * stored event to the subscribers — what `emit` does after its own insert.
   */
  along<R>(input: (result: R) => EmitInput | null): EventAlong<R> {
    return {
      make: (result: R): NewEvent | null => {
        const e = input(result);
        return e === null ? null : this.row(e);
      },
      stored: null,
    };
  }

  /** Hands the event a store write stored for `along` to the subscribers; null when it stored none. */
  announce<R>(along: EventAlong<R>): StoredEvent | null {
    const event = along.stored;
    if (event !== null) this.notify(event);
    return event;
  }

  private notify(event: StoredEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (e) {
        // A failing subscriber never breaks the engine, but it is not silent either.
        this.logLine('event_listener_failed', { event_type: event.event_type, code: failureCode(e) });
      }
    }
  }

  /**
   * Reports an internal failure: one log line, then one `engine_error` event (level error, `where`,
   * `code`). Never throws — when the store is what failed, the log line is the record.
   */
  async reportFailure(input: FailureInput): Promise<void> {
    const code = failureCode(input.error);
    this.logLine('engine_error', failureLogMeta(input));
    try {
      await this.emit({
        type: 'engine_error',
        swarm: input.swarm,
        agent: input.agent,
        message: `Internal failure in ${input.where} (${code}).`,
        metadata: { where: input.where, code, ...input.metadata },
      });
    } catch (e) {
      this.logLine('engine_error_unrecorded', { where: input.where, code, store_code: failureCode(e) });
    }
  }

  /**
   * One server-log line (level error) for a failure an operator must see there too (an agent that failed).
   * A `message` field becomes `explanation`: the record's own `message` is the line's name.
   */
  logError(message: string, meta: Record<string, unknown>): void {
    const { message: explanation, ...rest } = meta;
    this.logLine(message, sanitizeMetadata(explanation === undefined ? rest : { ...rest, explanation }));
  }

  private logLine(message: string, meta: Record<string, unknown>): void {
    try {
      this.log.error(message, meta);
    } catch {
      // best-effort: a log sink that throws has nowhere left to report to
    }
  }

  /** Every emitted event; filter with `matchesAnyFilter`. Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Validates the query parameters (docs/observability.md#query-parameters) (throws `invalid_query` with `param`); `scope` fixes swarm/agent for scoped routes. */
  async query(
    raw: EventQueryInput,
    scope: { swarm?: string; agent?: string } = {},
  ): Promise<{ events: StoredEvent[]; query: ParsedEventQuery }> {
    const parsed = parseEventQuery({ ...raw, ...scope });
    const events = await this.store.queryEvents(toStoreQuery(parsed, this.clock.now()));
    return { events, query: parsed };
  }
}
