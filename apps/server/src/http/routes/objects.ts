import type { Request } from 'express';
import { redactSecrets } from '@genswarms/security';
import { parseAddObjectCommand, parseObjectConfigPatchCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, nameParam } from './route-kit';

const swarmOf = (req: Request): string => nameParam(req, 's', 'swarm');
const objectOf = (req: Request): string => nameParam(req, 'o', 'object');

/** Objects of a swarm (docs/rest-api.md): list, add, detail, remove, config PATCH (config scope). */
export const OBJECT_HANDLERS = {
  listObjects: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.listObjects(swarmOf(req))) })),
  addObject: engineRoute(async (req, engine) => {
    const swarm = swarmOf(req);
    return { status: 201, body: await engine.addObject(swarm, parseAddObjectCommand(req.body)) };
  }),
  getObject: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.getObject(swarmOf(req), objectOf(req))) })),
  removeObject: engineRoute(async (req, engine) => ({ body: await engine.removeObject(swarmOf(req), objectOf(req)) })),
  patchObjectConfig: engineRoute(async (req, engine) => {
    const [swarm, object] = [swarmOf(req), objectOf(req)];
    return { body: await engine.patchObjectConfig(swarm, object, parseObjectConfigPatchCommand(req.body)) };
  }),
} satisfies RouteHandlers;
