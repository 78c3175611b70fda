import { redactSecrets } from '@genswarms/security';
import { parseStartCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { anyRoute, engineRoute, flagQuery, nameParam } from './route-kit';

/** Swarm lifecycle (docs/rest-api.md): list (an empty list without an engine), create, detail, stop/purge, restart, pause/resume. */
export const SWARM_HANDLERS = {
  listSwarms: anyRoute(async (_req, ctx) => {
    const engine = ctx.engine;
    return { body: { swarms: engine === undefined ? [] : redactSecrets((await engine.listSwarms()).swarms) } };
  }),
  startSwarm: engineRoute(async (req, engine) => ({ status: 201, body: await engine.startSwarm(parseStartCommand(req.body)) })),
  getSwarm: engineRoute(async (req, engine) => ({ body: redactSecrets(await engine.getSwarm(nameParam(req, 's', 'swarm'))) })),
  stopSwarm: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    return { body: await engine.stopSwarm(swarm, { purge: flagQuery(req, 'purge') }) };
  }),
  restartSwarm: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    return { body: await engine.restartSwarm(swarm, { deleteData: flagQuery(req, 'delete') }) };
  }),
  pauseSwarm: engineRoute(async (req, engine) => ({ body: await engine.pauseSwarm(nameParam(req, 's', 'swarm')) })),
  resumeSwarm: engineRoute(async (req, engine) => ({ body: await engine.resumeSwarm(nameParam(req, 's', 'swarm')) })),
} satisfies RouteHandlers;
