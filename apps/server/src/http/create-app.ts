import express from 'express';
import type { Express } from 'express';
import type { ServerConfig } from '../config/server-config';
import type { SwarmService } from '@genswarms/engine';
import type { EventSink } from '../events/event-sink';
import type { AuthDeniedReporter } from '../logging/auth-denied';
import type { ServerLogger } from '../logging/logger';
import { accessLog } from './access-log';
import { authStep } from './auth';
import { bodyStep } from './body';
import { chainSteps, onlyFor } from './chain-steps';
import { browserGuards } from './browser-guards';
import { corsStep } from './cors';
import { errorHandler, notFound, refuseOptions } from './fallthrough';
import { hardeningHeaders } from './hardening';
import { defaultUiRoot, isUiPath, UI_PATH, uiAssets } from './ui-assets';
import { configScope, endpointsOf, mountRoutes } from './mount-routes';
import type { Route, RouteContext } from './route';
import { DEFAULT_ROUTES } from './routes';
import type { ReadinessProbe } from './routes/health';
import type { ServerMetrics } from '../metrics/server-metrics';
import { createServerMetrics } from '../metrics/server-metrics';
import type { ConfigValidator } from './routes/config-validator';

/** What `createApp` is wired with (all resolved by `startServer`). */
export interface AppDeps {
  readonly engine?: SwarmService;
  readonly events: EventSink;
  readonly logger: ServerLogger;
  readonly reportDenial: AuthDeniedReporter;
  readonly validator: ConfigValidator;
  /** The routes to register, each an operation of the table with its handler (default `DEFAULT_ROUTES`). */
  readonly routes?: readonly Route[];
  /** Prometheus registry behind `GET /metrics` (default: a fresh one without engine gauges). */
  readonly metrics?: ServerMetrics;
  /** `GET /readyz` (default: never ready, as without an engine). */
  readonly readiness?: ReadinessProbe;
  /** True once the server is closing: `/readyz` answers 503. */
  readonly closing?: () => boolean;
  /** The built dashboard served at /ui/ (default: `@genswarms/dashboard`'s dist). */
  readonly uiRoot?: string;
}

/**
 * The HTTP pipeline in docs/security.md order: timing/request id → hardening → CORS/preflight → [/ui/ static files] →
 * /healthz, /readyz → auth (every request) → browser
 * guards → body → routes → 404 → 500. Peer = TCP peer; `trust proxy` stays off.
 */
export function createApp(config: ServerConfig, deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every answer is `Cache-Control: no-store` (hardening): an ETag would never be used, only cost a hash of each body.
  app.set('etag', false);
  app.set('trust proxy', false);
  const metrics = deps.metrics ?? createServerMetrics();
  const guards = browserGuards({
    tokens: config.tokens,
    cors: config.cors,
    bindAddress: config.bindAddress,
    reportDenial: deps.reportDenial,
  });
  // The dashboard's static files need no token (docs/dashboard.md); the browser guards still run on them.
  const ui = express.Router();
  ui.use(UI_PATH, uiAssets(deps.uiRoot ?? defaultUiRoot(), guards));
  const routes = deps.routes ?? DEFAULT_ROUTES;
  const ctx: RouteContext = {
    config,
    engine: deps.engine,
    events: deps.events,
    logger: deps.logger,
    validator: deps.validator,
    metrics,
    readiness: deps.readiness ?? (() => Promise.resolve(false)),
    closing: deps.closing ?? (() => false),
    endpoints: endpointsOf(routes),
  };
  // Only the table's routes are registered. The public ones (/healthz, /readyz) answer {status} only: no
  // token, no guards (docs/security.md, "Health endpoints").
  const mounted = mountRoutes(routes, ctx);
  // One express layer for every step before the routes (chainSteps); the /ui mount and the public router are
  // entered only for their own paths, so any other request pays no routing for them.
  app.use(
    chainSteps([
      accessLog(deps.logger, metrics),
      hardeningHeaders,
      corsStep(config.cors),
      onlyFor(isUiPath, ui),
      onlyFor(mounted.isPublicPath, mounted.publicRouter),
      authStep(config.tokens, deps.reportDenial, configScope(routes)),
      guards,
      bodyStep(),
      refuseOptions,
    ]),
  );

  app.use(mounted.router);
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
