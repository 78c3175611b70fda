import { parseTopologyPatchCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, nameParam } from './route-kit';

/** Topology (docs/rest-api.md): read, and all-or-nothing PATCH (any malformed edge refuses the whole patch). */
export const topologyRoute: RouteModule = {
  name: 'topology',
  endpoints: ['GET /api/swarms/:s/topology', 'PATCH /api/swarms/:s/topology'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get(
      '/api/swarms/:s/topology',
      handle(async (req) => ({ body: await engine.getTopology(nameParam(req, 's', 'swarm')) })),
    );
    router.patch(
      '/api/swarms/:s/topology',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        return { body: await engine.patchTopology(swarm, parseTopologyPatchCommand(req.body)) };
      }),
    );
  },
};
