import type { RouteModule } from '../route-module';
import { agentReadsRoute } from './agent-reads';
import { agentsRoute } from './agents';
import { configValidateRoute } from './config-validate';
import { eventsRoute } from './events';
import { gitWorkRoute } from './git-work';
import { llmRoute } from './llm';
import { messagesRoute } from './messages';
import { objectsRoute } from './objects';
import { openapiRoute } from './openapi';
import { overlayRoute } from './overlay';
import { skillsRoute } from './skills';
import { snapshotRoute } from './snapshot';
import { swarmsRoute } from './swarms';
import { topologyRoute } from './topology';

/**
 * Routes every server has (docs/rest-api.md). `GET /` is added by `createApp` (it lists all endpoints).
 * Engine-backed modules register nothing when no engine is injected (their paths then answer 404).
 */
export const DEFAULT_ROUTE_MODULES: readonly RouteModule[] = [
  swarmsRoute,
  messagesRoute,
  agentsRoute,
  agentReadsRoute,
  gitWorkRoute,
  llmRoute,
  topologyRoute,
  objectsRoute,
  overlayRoute,
  snapshotRoute,
  eventsRoute,
  skillsRoute,
  configValidateRoute,
  openapiRoute,
];
