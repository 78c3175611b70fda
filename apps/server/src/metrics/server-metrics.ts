import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SwarmService } from '@genswarms/engine';
import type { EventSink } from '../events/event-sink';
import { observeEnginePushes } from './engine-metrics';
import type { EngineInstruments } from './engine-metrics';
import { collectAgentGauges } from './agent-gauges';
import { createLlmInstruments, observeLlmCalls } from './llm-metrics';

/** Seconds; turns run from a second to many minutes (turn_timeout_ms is often 5–30 min). */
const TURN_BUCKETS_S = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
/** Seconds; from the receipt in hand to its stored event: the turn's store update and the event write. */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Seconds; REST answers are in-memory or one SQLite query, a start spawns processes. */
const HTTP_BUCKETS_S = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** The server's Prometheus instruments, one registry per server (no module-level state: several servers share a process in tests). */
export interface ServerMetrics {
  readonly registry: Registry;
  /** One finished HTTP request; `route` is the route TEMPLATE (`/api/swarms/:s`) or `unmatched`, never a raw path. */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** Counts one edge event (auth_denied, server_started…) that does not come back through the engine's pushes. */
  countEdgeEvent(category: string, eventType: string): void;
  /** Feeds the engine's pushes into the counters and histograms; returns the unsubscribe function. */
  attachEngine(engine: SwarmService): () => void;
  /** Counts one socket.io connection closed as a slow consumer (docs/websocket.md). */
  countSlowConsumer(): void;
  /** Where the socket client gauge reads its value at scrape time. */
  setSocketClients(read: () => number): void;
  /** The Prometheus text exposition (served with `contentType`). */
  render(): Promise<string>;
  readonly contentType: string;
}

/** How often the event-loop lag (`nodejs_eventloop_lag_*`) is sampled, ms. */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Builds the registry: engine counters and histograms, scrape-time gauges, HTTP timing and the process metrics of prom-client. */
export function createServerMetrics(opts: { engine?: SwarmService } = {}): ServerMetrics {
  const registry = new Registry();
  // The event-loop lag is sampled by a libuv timer; at prom-client's default 10 ms it woke an idle server 100
  // times a second, 0.55 % of a core on this VM (0.1 % at 100 ms). Lag is still measured on every sample: the
  // histogram records how late each one fired, so a stall of the loop shows up in full.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const registers = [registry];
  const engineInstruments: EngineInstruments = {
    turns: new Counter({ name: 'genswarms_turns_total', help: 'Turns that ended, by status', labelNames: ['status'], registers }),
    turnDuration: new Histogram({
      name: 'genswarms_turn_duration_seconds',
      help: 'From turn_started to the event that ended the turn, by status',
      labelNames: ['status'],
      buckets: TURN_BUCKETS_S,
      registers,
    }),
    receiptLatency: new Histogram({
      name: 'genswarms_receipt_to_event_seconds',
      help: "From the agent's receipt (done.json written) to the engine's turn event",
      buckets: LATENCY_BUCKETS_S,
      registers,
    }),
    messages: new Counter({ name: 'genswarms_messages_routed_total', help: 'Messages routed, by type', labelNames: ['type'], registers }),
    events: new Counter({
      name: 'genswarms_events_total',
      help: 'Events emitted, by category and event_type',
      labelNames: ['category', 'event_type'],
      registers,
    }),
  };
  const http = new Histogram({
    name: 'genswarms_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS_S,
    registers,
  });
  let readSockets = (): number => 0;
  new Gauge({
    name: 'genswarms_socket_clients',
    help: 'Connected socket.io clients',
    registers,
    collect(): void {
      this.set(readSockets());
    },
  });
  const slowConsumers = new Counter({
    name: 'genswarms_socket_slow_consumers_total',
    help: 'socket.io connections closed for holding more unsent data than GENSWARMS_SOCKET_MAX_BUFFER_BYTES',
    registers,
  });
  if (opts.engine !== undefined) collectAgentGauges(opts.engine, registers);
  const llm = createLlmInstruments(registers);
  return {
    registry,
    contentType: registry.contentType,
    observeHttp: (method, route, status, seconds) => http.observe({ method, route, status: String(status) }, seconds),
    countEdgeEvent: (category, eventType) => engineInstruments.events.inc({ category, event_type: eventType }),
    attachEngine: (engine) => {
      const unpush = observeEnginePushes(engine, engineInstruments);
      const uncall = observeLlmCalls(engine, llm);
      return () => {
        unpush();
        uncall();
      };
    },
    countSlowConsumer: () => slowConsumers.inc(),
    setSocketClients(read): void {
      readSockets = read;
    },
    render: async () => spellNaN(await registry.metrics()),
  };
}

/** The edge's event sink, each event also counted in `genswarms_events_total` (edge events carry no swarm, so no push brings them back). */
export function countingEventSink(sink: EventSink, metrics: ServerMetrics): EventSink {
  return {
    emit(event): void {
      metrics.countEdgeEvent(event.category, event.event_type);
      sink.emit(event);
    },
  };
}

/**
 * prom-client writes a NaN sample value as `Nan` (the event-loop statistics before their first sample); the text
 * exposition format spells it `NaN`, which strict parsers require.
 */
export function spellNaN(text: string): string {
  return text.replace(/^([^#\n][^\n]*) Nan$/gm, '$1 NaN');
}
