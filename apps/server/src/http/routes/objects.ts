import { redactSecrets } from '@genswarms/security';
import { parseAddObjectCommand, parseObjectConfigPatchCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, nameParam } from './route-kit';

/** Objects of a swarm (docs/rest-api.md): list, add, detail, remove, config PATCH (config scope). */
export const objectsRoute: RouteModule = {
  name: 'objects',
  endpoints: [
    'GET /api/swarms/:s/objects',
    'POST /api/swarms/:s/objects',
    'GET /api/swarms/:s/objects/:o',
    'DELETE /api/swarms/:s/objects/:o',
    'PATCH /api/swarms/:s/objects/:o/config',
  ],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    const swarmOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 's', 'swarm');
    const objectOf = (req: Parameters<typeof nameParam>[0]): string => nameParam(req, 'o', 'object');
    router.get(
      '/api/swarms/:s/objects',
      handle(async (req) => ({ body: redactSecrets(await engine.listObjects(swarmOf(req))) })),
    );
    router.post(
      '/api/swarms/:s/objects',
      handle(async (req) => {
        const swarm = swarmOf(req);
        return { status: 201, body: await engine.addObject(swarm, parseAddObjectCommand(req.body)) };
      }),
    );
    router.get(
      '/api/swarms/:s/objects/:o',
      handle(async (req) => ({ body: redactSecrets(await engine.getObject(swarmOf(req), objectOf(req))) })),
    );
    router.delete(
      '/api/swarms/:s/objects/:o',
      handle(async (req) => ({ body: await engine.removeObject(swarmOf(req), objectOf(req)) })),
    );
    router.patch(
      '/api/swarms/:s/objects/:o/config',
      handle(async (req) => {
        const [swarm, object] = [swarmOf(req), objectOf(req)];
        return { body: await engine.patchObjectConfig(swarm, object, parseObjectConfigPatchCommand(req.body)) };
      }),
    );
  },
};
