import type { Request } from 'express';
import { EVENT_QUERY_PARAMS, parseEventQuery } from '@genswarms/engine';
import type { EventQueryInput } from '@genswarms/engine';
import { isName } from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import type { RouteHandlers } from './route-kit';
import { engineRoute, pathParam } from './route-kit';

/** Only the documented query parameters are read; others are ignored. */
function eventQuery(req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const query = req.query as Record<string, unknown>;
  for (const key of EVENT_QUERY_PARAMS) if (query[key] !== undefined) out[key] = query[key];
  return out;
}

const empty = (scope: Record<string, string>): { body: Record<string, unknown> } => ({ body: { events: [], count: 0, ...scope } });

/**
 * A path name off the Name grammar cannot exist (empty list), but the query is still checked first:
 * a bad parameter is 400 `invalid_query` on every events route. Path values replace the query's.
 */
function checkQuery(query: EventQueryInput, scope: { swarm?: string; agent?: string }): void {
  parseEventQuery({ ...query, ...scope });
}

/** Events (docs/observability.md): global and scoped; unknown swarms/agents answer empty lists, not 404. */
export const EVENT_HANDLERS = {
  queryEvents: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.queryEvents(parseEventQuery(eventQuery(req)))) })),
  swarmEvents: engineRoute(async (req, engine) => {
    const swarm = pathParam(req, 's');
    const query = eventQuery(req);
    checkQuery(query, { swarm: 'x' });
    if (!isName(swarm)) return empty({ swarm });
    const { events, count } = await engine.queryEvents(parseEventQuery({ ...query, swarm }));
    return { body: { events: redactSecrets(events), count, swarm } };
  }),
  agentEvents: engineRoute(async (req, engine) => {
    const [swarm, agent] = [pathParam(req, 's'), pathParam(req, 'a')];
    const query = eventQuery(req);
    checkQuery(query, { swarm: 'x', agent: 'x' });
    if (!isName(swarm) || !isName(agent)) return empty({ swarm, agent });
    const { events, count } = await engine.queryEvents(parseEventQuery({ ...query, swarm, agent }));
    return { body: { events: redactSecrets(events), count, swarm, agent } };
  }),
} satisfies RouteHandlers;
