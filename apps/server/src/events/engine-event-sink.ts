import type { EventSink, ServerEvent } from './event-sink';

/** The engine's event bus as the server sees it (emit is async; the store assigns id and timestamp). */
export interface EngineEventBus {
  emit(input: {
    type: string;
    swarm: string | null;
    agent: string | null;
    message: string;
    metadata?: Readonly<Record<string, unknown>>;
    level?: ServerEvent['level'];
  }): Promise<unknown>;
}

/**
 * Edge events (`auth_denied`, `server_started`, `server_stopping`) become engine events: stored in
 * SQLite and served by the events routes. A failed store write is reported, never thrown at a request.
 */
export function createEngineEventSink(bus: EngineEventBus, onError: (err: unknown) => void): EventSink {
  return {
    emit(event: ServerEvent): void {
      bus
        .emit({
          type: event.event_type,
          swarm: event.swarm,
          agent: event.agent,
          message: event.message,
          metadata: event.metadata,
          level: event.level,
        })
        .catch(onError);
    },
  };
}
