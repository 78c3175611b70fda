import { parseTopologyPatchCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, nameParam } from './route-kit';

/** Topology (docs/rest-api.md): read, and all-or-nothing PATCH (any malformed edge refuses the whole patch). */
export const TOPOLOGY_HANDLERS = {
  getTopology: engineRoute(async (req, engine) => ({ body: await engine.getTopology(nameParam(req, 's', 'swarm')) })),
  patchTopology: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    return { body: await engine.patchTopology(swarm, parseTopologyPatchCommand(req.body)) };
  }),
} satisfies RouteHandlers;
