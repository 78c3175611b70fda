import { z } from 'zod';
import type { RouteModule } from '../route-module';
import { handle, limitQuery, nameParam, parseBody } from './route-kit';

const MessageBodySchema = z.strictObject({
  from: z.string().describe('Sender name (an agent, an object or any operator label)'),
  to: z.string().describe('Recipient agent or object'),
  content: z.string().describe('Message text'),
});

/** Operator messages and the message log (CONTRACT §15). */
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
        const msg = parseBody(MessageBodySchema, req.body, 'from, to and content must be strings.');
        return { body: await engine.sendMessage(swarm, msg) };
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
