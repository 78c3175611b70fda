import { parseMessageCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, limitQuery, nameParam } from './route-kit';

/** Operator messages and the message log (docs/rest-api.md). */
export const messagesRoute: RouteModule = {
  name: 'messages',
  endpoints: ['POST /api/swarms/:s/message', 'GET /api/swarms/:s/messages'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.post(
      '/api/swarms/:s/message',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        return { body: await engine.sendMessage(swarm, parseMessageCommand(req.body)) };
      }),
    );
    router.get(
      '/api/swarms/:s/messages',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        return { body: await engine.listMessages(swarm, limitQuery(req, 1000, 100)) };
      }),
    );
  },
};
