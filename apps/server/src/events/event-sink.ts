/** docs/observability.md event as emitted by the server edge; the engine's store assigns `id` and `timestamp`. */
export interface ServerEvent {
  readonly level: 'debug' | 'info' | 'warning' | 'error';
  readonly category: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
  readonly swarm: string | null;
  readonly agent: string | null;
  readonly event_type: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** Where the server edge sends events. The engine's bus (SQLite + socket.io pushes) is one. */
export interface EventSink {
  emit(event: ServerEvent): void;
}

/** In-memory sink, newest last, bounded (default 1000 events). */
export interface MemoryEventSink extends EventSink {
  readonly events: readonly ServerEvent[];
}

/** Creates the default in-memory sink used until an engine is injected. */
export function createMemoryEventSink(max = 1000): MemoryEventSink {
  const events: ServerEvent[] = [];
  return {
    events,
    emit(event: ServerEvent): void {
      events.push(event);
      if (events.length > max) events.splice(0, events.length - max);
    },
  };
}
