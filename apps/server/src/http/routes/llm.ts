import { invalidQuery } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, limitQuery, nameParam, queryParam } from './route-kit';

/** `?before=<id>`: digits only, 1 or more; absent → the newest page. */
function beforeQuery(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalidQuery('before', 'expected an entry id (an integer >= 1)');
  return n;
}

/** LLM budgets at run time and the audit trail of the metering egress (docs/rest-api.md "LLM budgets"). */
export const LLM_HANDLERS = {
  patchAgentBudget: engineRoute(async (req, engine) => ({
    body: await engine.patchAgentBudget(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent'), req.body),
  })),
  patchSwarmBudget: engineRoute(async (req, engine) => ({ body: await engine.patchSwarmBudget(nameParam(req, 's', 'swarm'), req.body) })),
  listLlmRequests: engineRoute(async (req, engine) => {
    const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
    const page = { limit: limitQuery(req, 500, 100), ...optionalBefore(beforeQuery(queryParam(req, 'before'))) };
    return { body: await engine.listLlmRequests(swarm, agent, page) };
  }),
} satisfies RouteHandlers;

function optionalBefore(before: number | undefined): { before?: number } {
  return before === undefined ? {} : { before };
}
