import type { RequestHandler } from 'express';
import type { ServerConfig } from '../config/server-config';
import type { SwarmService } from '@genswarms/engine';
import type { EventSink } from '../events/event-sink';
import type { ServerLogger } from '../logging/logger';
import type { ServerMetrics } from '../metrics/server-metrics';
import type { Operation } from './operations';
import type { ConfigValidator } from './routes/config-validator';

/** Everything a route handler may use. Handlers do no file I/O of their own: they call libs. */
export interface RouteContext {
  readonly config: ServerConfig;
  readonly engine?: SwarmService;
  readonly events: EventSink;
  readonly logger: ServerLogger;
  readonly validator: ConfigValidator;
  readonly metrics: ServerMetrics;
  readonly readiness: ReadinessProbe;
  /** True once the server is closing. */
  readonly closing: () => boolean;
  /** `METHOD /path` of every route of the app, in table order (`GET /` answers them). */
  readonly endpoints: readonly string[];
}

/**
 * Binds one operation to its handler for an app: the handler, or undefined to leave the path unrouted
 * (it answers 404; the engine-backed routes of a server without an engine).
 */
export type BindRoute = (ctx: RouteContext) => RequestHandler | undefined;

/** One operation of the table with its handler; `createApp` registers exactly these, nothing else. */
export interface Route extends Operation {
  readonly bind: BindRoute;
}

/** Whether the server can take work: the store answers and the runners were probed. Never throws. */
export type ReadinessProbe = () => Promise<boolean>;
