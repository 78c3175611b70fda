import { z } from 'zod';
import type { Edge } from '../../engine-port';
import type { RouteModule } from '../route-module';
import { handle, nameParam, parseBody } from './route-kit';

const NodeName = z.string().min(1).max(64).describe('Agent or object name');
const EdgeSchema = z
  .union([
    z.tuple([NodeName, NodeName]).describe('[from, to]'),
    z.strictObject({ from: NodeName, to: NodeName }).describe('{from, to}'),
  ])
  .transform((e): Edge => (Array.isArray(e) ? [e[0], e[1]] : [e.from, e.to]));

const PatchBodySchema = z.strictObject({
  add: z.array(EdgeSchema).max(10000).optional().describe('Edges to add'),
  remove: z.array(EdgeSchema).max(10000).optional().describe('Edges to remove'),
});

/** Topology (CONTRACT §15): read, and all-or-nothing PATCH (any malformed edge refuses the whole patch). */
export const topologyRoute: RouteModule = {
  name: 'topology',
  endpoints: ['GET /api/swarms/:s/topology', 'PATCH /api/swarms/:s/topology'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get('/api/swarms/:s/topology', handle(async (req) => ({ body: await engine.getTopology(nameParam(req, 's', 'swarm')) })));
    router.patch(
      '/api/swarms/:s/topology',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        const patch = parseBody(PatchBodySchema, req.body, 'Every edge must be [from, to] or {from, to}; nothing was changed.');
        return { body: await engine.patchTopology(swarm, { add: patch.add ?? [], remove: patch.remove ?? [] }) };
      }),
    );
  },
};
