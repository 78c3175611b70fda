import type { Request } from 'express';
import { redactSecrets } from '@genswarms/security';
import { parseAddAgentCommand, parseScaleCommand, parseTaskCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, nameParam } from './route-kit';

const swarmOf = (req: Request): string => nameParam(req, 's', 'swarm');
const agentOf = (req: Request): string => nameParam(req, 'a', 'agent');

/** Agents of a swarm (docs/rest-api.md): list, add, detail, remove, task, restart, resume, scale. */
export const AGENT_HANDLERS = {
  listAgents: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.listAgents(swarmOf(req))) })),
  addAgent: engineRoute(async (req, engine) => {
    const swarm = swarmOf(req);
    return { status: 201, body: await engine.addAgent(swarm, parseAddAgentCommand(req.body)) };
  }),
  getAgent: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.getAgent(swarmOf(req), agentOf(req))) })),
  removeAgent: engineRoute(async (req, engine) => ({ body: await engine.removeAgent(swarmOf(req), agentOf(req)) })),
  sendTask: engineRoute(async (req, engine) => {
    const [swarm, agent] = [swarmOf(req), agentOf(req)];
    const { task } = parseTaskCommand(req.body);
    return { body: await engine.sendTask(swarm, agent, task) };
  }),
  restartAgent: engineRoute(async (req, engine) => ({ body: await engine.restartAgent(swarmOf(req), agentOf(req)) })),
  resumeAgent: engineRoute(async (req, engine) => ({ body: await engine.resumeAgent(swarmOf(req), agentOf(req)) })),
  scaleAgents: engineRoute(async (req, engine) => {
    const [swarm, base] = [swarmOf(req), nameParam(req, 'base', 'agent')];
    return { body: await engine.scaleAgents(swarm, base, parseScaleCommand(req.body).count) };
  }),
} satisfies RouteHandlers;
