import type { EnginePush, StoredEvent, SwarmService } from '@genswarms/engine';
import type { Counter, Histogram } from 'prom-client';

/** The counters and histograms the engine's pushes feed (registered by createServerMetrics). */
export interface EngineInstruments {
  readonly turns: Counter<'status'>;
  readonly turnDuration: Histogram<'status'>;
  readonly receiptLatency: Histogram;
  readonly messages: Counter<'type'>;
  readonly events: Counter<'category' | 'event_type'>;
}

/** Open turns remembered for their duration; past this the oldest is forgotten (its duration is not observed). */
const MAX_OPEN_TURNS = 10_000;

/** The status label of a turn-ending event, or undefined when the event does not end a turn. */
function endedStatus(e: StoredEvent): 'completed' | 'error' | 'timed_out' | 'cancelled' | undefined {
  switch (e.event_type) {
    case 'turn_completed':
      return 'completed';
    case 'turn_failed':
      return e.metadata['status'] === 'cancelled' ? 'cancelled' : 'error';
    case 'turn_timeout':
      return 'timed_out';
    default:
      return undefined;
  }
}

function routedType(e: StoredEvent): string | undefined {
  if (e.event_type === 'message_broadcast') return 'broadcast';
  if (e.event_type !== 'message_routed') return undefined;
  const type = e.metadata['type'];
  return type === 'ask' ? 'ask' : 'direct';
}

/**
 * Feeds the counters and histograms from the engine's event pushes (the engine knows nothing of
 * Prometheus). A turn's duration runs from its `turn_started` event to the event that ends it, both
 * stamped by the engine's clock; a late receipt after `turn_timeout` is not counted twice.
 */
export function observeEnginePushes(engine: SwarmService, m: EngineInstruments): () => void {
  const started = new Map<string, number>();
  const onEvent = (e: StoredEvent): void => {
    m.events.inc({ category: e.category, event_type: e.event_type });
    const routed = routedType(e);
    if (routed !== undefined) m.messages.inc({ type: routed });
    const turn = typeof e.metadata['turn'] === 'string' ? e.metadata['turn'] : undefined;
    if (turn === undefined) return;
    const at = Date.parse(e.timestamp);
    if (e.event_type === 'turn_started') {
      if (started.size >= MAX_OPEN_TURNS) started.delete(started.keys().next().value as string);
      started.set(turn, at);
      return;
    }
    const status = endedStatus(e);
    if (status === undefined) return;
    const latencyMs = e.metadata['receipt_latency_ms'];
    if (typeof latencyMs === 'number' && Number.isFinite(latencyMs) && latencyMs >= 0) m.receiptLatency.observe(latencyMs / 1000);
    m.turns.inc({ status });
    const from = started.get(turn);
    if (from === undefined) return; // a turn started before this server: counted, its duration unknown
    started.delete(turn);
    if (Number.isFinite(at - from)) m.turnDuration.observe({ status }, Math.max(0, at - from) / 1000);
  };
  return engine.onPush((_swarm: string, push: EnginePush) => {
    if (push.type === 'event') onEvent(push.payload);
  });
}
