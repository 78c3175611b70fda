import { redactSecrets } from '@genswarms/security';
import { parseStartCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { flagQuery, handle, nameParam } from './route-kit';

/** Swarm lifecycle (docs/rest-api.md): list, create, detail, stop/purge, restart, pause/resume. */
export const swarmsRoute: RouteModule = {
  name: 'swarms',
  endpoints: [
    'GET /api/swarms',
    'POST /api/swarms',
    'GET /api/swarms/:s',
    'DELETE /api/swarms/:s',
    'POST /api/swarms/:s/restart',
    'POST /api/swarms/:s/pause',
    'POST /api/swarms/:s/resume',
  ],
  register(router, ctx): void {
    const engine = ctx.engine;
    router.get(
      '/api/swarms',
      handle(async () => ({ body: { swarms: engine === undefined ? [] : redactSecrets((await engine.listSwarms()).swarms) } })),
    );
    if (engine === undefined) return;
    router.post(
      '/api/swarms',
      handle(async (req) => ({ status: 201, body: await engine.startSwarm(parseStartCommand(req.body)) })),
    );
    router.get(
      '/api/swarms/:s',
      handle(async (req) => ({ body: redactSecrets(await engine.getSwarm(nameParam(req, 's', 'swarm'))) })),
    );
    router.delete(
      '/api/swarms/:s',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        return { body: await engine.stopSwarm(swarm, { purge: flagQuery(req, 'purge') }) };
      }),
    );
    router.post(
      '/api/swarms/:s/restart',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        return { body: await engine.restartSwarm(swarm, { deleteData: flagQuery(req, 'delete') }) };
      }),
    );
    router.post(
      '/api/swarms/:s/pause',
      handle(async (req) => ({ body: await engine.pauseSwarm(nameParam(req, 's', 'swarm')) })),
    );
    router.post(
      '/api/swarms/:s/resume',
      handle(async (req) => ({ body: await engine.resumeSwarm(nameParam(req, 's', 'swarm')) })),
    );
  },
};
