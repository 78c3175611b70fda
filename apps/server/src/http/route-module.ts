import type { Router } from 'express';
import type { ServerConfig } from '../config/server-config';
import type { SwarmService } from '@genswarms/engine';
import type { EventSink } from '../events/event-sink';
import type { ServerLogger } from '../logging/logger';
import type { ConfigValidator } from './routes/config-validator';

/** Everything a route module may use. Route modules do no file I/O of their own: they call libs. */
export interface RouteContext {
  readonly config: ServerConfig;
  readonly engine?: SwarmService;
  readonly events: EventSink;
  readonly logger: ServerLogger;
  readonly validator: ConfigValidator;
}

/**
 * A group of routes. Modules are registered from a list (`DEFAULT_ROUTE_MODULES` plus `deps.routes`),
 * so later features add a file, not edits to the app. `endpoints` feeds the `GET /` descriptor.
 */
export interface RouteModule {
  readonly name: string;
  readonly endpoints: readonly string[];
  register(router: Router, ctx: RouteContext): void;
}
