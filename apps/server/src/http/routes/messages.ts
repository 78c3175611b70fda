import { parseMessageCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, limitQuery, nameParam } from './route-kit';

/** Operator messages and the message log (docs/rest-api.md). */
export const MESSAGE_HANDLERS = {
  sendMessage: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    return { body: await engine.sendMessage(swarm, parseMessageCommand(req.body)) };
  }),
  listMessages: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    return { body: await engine.listMessages(swarm, limitQuery(req, 1000, 100)) };
  }),
} satisfies RouteHandlers;
