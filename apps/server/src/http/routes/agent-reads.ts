import type { RouteHandlers } from './route-kit';
import { engineRoute, limitQuery, nameParam, pathParam } from './route-kit';

/** Per-agent reads (docs/rest-api.md): turns, one turn with its full reply, history, output logs, a TUI agent's screen. */
export const AGENT_READ_HANDLERS = {
  listTurns: engineRoute(async (req, engine) => {
    const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
    return { body: await engine.listTurns(swarm, agent, limitQuery(req, 500, 50)) };
  }),
  getTurn: engineRoute(async (req, engine) => {
    const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
    // The engine checks the id's grammar (an off-grammar id is turn_not_found, never echoed).
    return { body: await engine.getTurn(swarm, agent, pathParam(req, 't')) };
  }),
  agentHistory: engineRoute(async (req, engine) => {
    const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
    return { body: await engine.agentHistory(swarm, agent, limitQuery(req, 1000, 100)) };
  }),
  agentLogs: engineRoute(async (req, engine) => ({
    body: await engine.agentLogs(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')),
  })),
  agentScreen: engineRoute(async (req, engine) => ({
    body: await engine.agentScreen(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')),
  })),
} satisfies RouteHandlers;
