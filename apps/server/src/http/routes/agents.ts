import { redactSecrets } from '@genswarms/security';
import { parseAddAgentCommand, parseScaleCommand, parseTaskCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, nameParam } from './route-kit';

/** Agents of a swarm (docs/rest-api.md): list, add, detail, remove, task, restart, resume, scale. */
export const agentsRoute: RouteModule = {
  name: 'agents',
  endpoints: [
    'GET /api/swarms/:s/agents',
    'POST /api/swarms/:s/agents',
    'GET /api/swarms/:s/agents/:a',
    'DELETE /api/swarms/:s/agents/:a',
    'POST /api/swarms/:s/agents/:a/task',
    'POST /api/swarms/:s/agents/:a/restart',
    'POST /api/swarms/:s/agents/:a/resume',
    'POST /api/swarms/:s/agents/:base/scale',
  ],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    const swarmOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 's', 'swarm');
    const agentOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 'a', 'agent');
    router.get(
      '/api/swarms/:s/agents',
      handle(async (req) => ({ body: redactSecrets(await engine.listAgents(swarmOf(req))) })),
    );
    router.post(
      '/api/swarms/:s/agents',
      handle(async (req) => {
        const swarm = swarmOf(req);
        return { status: 201, body: await engine.addAgent(swarm, parseAddAgentCommand(req.body)) };
      }),
    );
    router.get(
      '/api/swarms/:s/agents/:a',
      handle(async (req) => ({ body: redactSecrets(await engine.getAgent(swarmOf(req), agentOf(req))) })),
    );
    router.delete(
      '/api/swarms/:s/agents/:a',
      handle(async (req) => ({ body: await engine.removeAgent(swarmOf(req), agentOf(req)) })),
    );
    router.post(
      '/api/swarms/:s/agents/:a/task',
      handle(async (req) => {
        const [swarm, agent] = [swarmOf(req), agentOf(req)];
        const { task } = parseTaskCommand(req.body);
        return { body: await engine.sendTask(swarm, agent, task) };
      }),
    );
    router.post(
      '/api/swarms/:s/agents/:a/restart',
      handle(async (req) => ({ body: await engine.restartAgent(swarmOf(req), agentOf(req)) })),
    );
    router.post(
      '/api/swarms/:s/agents/:a/resume',
      handle(async (req) => ({ body: await engine.resumeAgent(swarmOf(req), agentOf(req)) })),
    );
    router.post(
      '/api/swarms/:s/agents/:base/scale',
      handle(async (req) => {
        const [swarm, base] = [swarmOf(req), nameParam(req, 'base', 'agent')];
        return { body: await engine.scaleAgents(swarm, base, parseScaleCommand(req.body).count) };
      }),
    );
  },
};
