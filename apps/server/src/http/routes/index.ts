import { OPERATIONS } from '../operations';
import type { Operation, OperationId } from '../operations';
import type { BindRoute, Route } from '../route';
import { AGENT_READ_HANDLERS } from './agent-reads';
import { AGENT_HANDLERS } from './agents';
import { CONFIG_VALIDATE_HANDLERS } from './config-validate';
import { EVENT_HANDLERS } from './events';
import { GIT_WORK_HANDLERS } from './git-work';
import { HEALTH_HANDLERS } from './health';
import { LLM_HANDLERS } from './llm';
import { MESSAGE_HANDLERS } from './messages';
import { METRICS_HANDLERS } from './metrics';
import { OBJECT_HANDLERS } from './objects';
import { OPENAPI_HANDLERS } from './openapi';
import { OVERLAY_HANDLERS } from './overlay';
import { ROOT_HANDLERS } from './root';
import { SKILL_HANDLERS } from './skills';
import { SNAPSHOT_HANDLERS } from './snapshot';
import { SWARM_HANDLERS } from './swarms';
import { TOPOLOGY_HANDLERS } from './topology';

/** One handler per operation of the table: an operation left out does not compile (test/route-table.spec.ts checks it at run time too). */
export const ROUTE_HANDLERS: Readonly<Record<OperationId, BindRoute>> = {
  ...ROOT_HANDLERS,
  ...OPENAPI_HANDLERS,
  ...HEALTH_HANDLERS,
  ...METRICS_HANDLERS,
  ...SWARM_HANDLERS,
  ...SNAPSHOT_HANDLERS,
  ...MESSAGE_HANDLERS,
  ...AGENT_HANDLERS,
  ...AGENT_READ_HANDLERS,
  ...GIT_WORK_HANDLERS,
  ...TOPOLOGY_HANDLERS,
  ...OBJECT_HANDLERS,
  ...OVERLAY_HANDLERS,
  ...EVENT_HANDLERS,
  ...SKILL_HANDLERS,
  ...CONFIG_VALIDATE_HANDLERS,
  ...LLM_HANDLERS,
};

/**
 * Binds each operation to its handler by `operationId`. Throws on an operation without a handler and on a
 * handler that names no operation (a route the table does not describe), so neither can reach a server.
 */
export function bindRoutes(operations: readonly Operation[], handlers: Readonly<Record<string, BindRoute>>): Route[] {
  const byId = new Map(Object.entries(handlers));
  const routes = operations.map((op) => {
    const bind = byId.get(op.operationId);
    if (bind === undefined) throw new Error(`operation ${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no handler`);
    byId.delete(op.operationId);
    return { ...op, bind };
  });
  const orphans = [...byId.keys()];
  if (orphans.length > 0) throw new Error(`handlers without an operation in the table: ${orphans.join(', ')}`);
  return routes;
}

/**
 * Every route of the server (docs/rest-api.md): the operation table, each with its handler. Engine-backed
 * handlers route nothing when no engine is injected (their paths then answer 404).
 */
export const DEFAULT_ROUTES: readonly Route[] = bindRoutes(OPERATIONS, ROUTE_HANDLERS);
