import type { RouteModule } from '../route-module';
import { handle, limitQuery, nameParam, pathParam } from './route-kit';

/** Per-agent read routes (docs/rest-api.md): turns, one turn with its full reply, history, output logs, a TUI agent's screen. */
export const agentReadsRoute: RouteModule = {
  name: 'agent-reads',
  endpoints: [
    'GET /api/swarms/:s/agents/:a/turns',
    'GET /api/swarms/:s/agents/:a/turns/:t',
    'GET /api/swarms/:s/agents/:a/history',
    'GET /api/swarms/:s/agents/:a/logs',
    'GET /api/swarms/:s/agents/:a/screen',
  ],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get(
      '/api/swarms/:s/agents/:a/turns',
      handle(async (req) => {
        const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
        return { body: await engine.listTurns(swarm, agent, limitQuery(req, 500, 50)) };
      }),
    );
    router.get(
      '/api/swarms/:s/agents/:a/turns/:t',
      handle(async (req) => {
        const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
        // The engine checks the id's grammar (an off-grammar id is turn_not_found, never echoed).
        return { body: await engine.getTurn(swarm, agent, pathParam(req, 't')) };
      }),
    );
    router.get(
      '/api/swarms/:s/agents/:a/history',
      handle(async (req) => {
        const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
        return { body: await engine.agentHistory(swarm, agent, limitQuery(req, 1000, 100)) };
      }),
    );
    router.get(
      '/api/swarms/:s/agents/:a/logs',
      handle(async (req) => ({ body: await engine.agentLogs(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')) })),
    );
    router.get(
      '/api/swarms/:s/agents/:a/screen',
      handle(async (req) => ({ body: await engine.agentScreen(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')) })),
    );
  },
};
