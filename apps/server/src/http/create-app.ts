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
import { browserGuards } from './browser-guards';
import { corsStep } from './cors';
import { errorHandler, notFound, refuseOptions } from './fallthrough';
import { hardeningHeaders } from './hardening';
import type { RouteContext, RouteModule } from './route-module';
import { createRootRoute } from './routes/root';
import type { ConfigValidator } from './routes/config-validator';

/** What `createApp` is wired with (all resolved by `startServer`). */
export interface AppDeps {
  readonly engine?: SwarmService;
  readonly events: EventSink;
  readonly logger: ServerLogger;
  readonly reportDenial: AuthDeniedReporter;
  readonly validator: ConfigValidator;
  readonly routes: readonly RouteModule[];
}

/**
 * The HTTP pipeline in docs/security.md order: hardening → CORS/preflight → auth (every request) → browser
 * guards → body → routes → 404 → 500. Peer = TCP peer; `trust proxy` stays off.
 */
export function createApp(config: ServerConfig, deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(accessLog(deps.logger));
  app.use(hardeningHeaders);
  app.use(corsStep(config.cors));
  app.use(authStep(config.tokens, deps.reportDenial));
  app.use(browserGuards({ tokens: config.tokens, cors: config.cors, bindAddress: config.bindAddress, reportDenial: deps.reportDenial }));
  app.use(bodyStep());
  app.use(refuseOptions);

  const ctx: RouteContext = { config, engine: deps.engine, events: deps.events, logger: deps.logger, validator: deps.validator };
  const modules: RouteModule[] = [createRootRoute((): string[] => modules.flatMap((m) => m.endpoints)), ...deps.routes];
  // Strict, case-sensitive paths: what routeScope() calls a config route is exactly what is routed there.
  const router = express.Router({ strict: true, caseSensitive: true });
  for (const module of modules) module.register(router, ctx);
  app.use(router);
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
