import { isName } from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import type { RouteModule } from '../route-module';
import { handle, pathParam } from './route-kit';

/**
 * Overlay (docs/rest-api.md): `GET` (config scope) answers `{swarm, events: []}` for an unknown swarm,
 * even an off-grammar name; `DELETE` (full scope) clears it and answers `cleared` likewise.
 */
export const overlayRoute: RouteModule = {
  name: 'overlay',
  endpoints: ['GET /api/swarms/:s/overlay', 'DELETE /api/swarms/:s/overlay'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get(
      '/api/swarms/:s/overlay',
      handle(async (req) => {
        const swarm = pathParam(req, 's');
        if (!isName(swarm)) return { body: { swarm, events: [] } };
        return { body: redactSecrets(await engine.getOverlay(swarm)) };
      }),
    );
    router.delete(
      '/api/swarms/:s/overlay',
      handle(async (req) => {
        const swarm = pathParam(req, 's');
        if (!isName(swarm)) return { body: { status: 'cleared', swarm } };
        return { body: await engine.clearOverlay(swarm) };
      }),
    );
  },
};
