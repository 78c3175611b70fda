import { isName } from '@genswarms/ir-gate';
import { redactSecrets } from '@genswarms/security';
import type { RouteHandlers } from './route-kit';
import { engineRoute, pathParam } from './route-kit';

/**
 * Overlay (docs/rest-api.md): `GET` (config scope) answers `{swarm, events: []}` for an unknown swarm,
 * even an off-grammar name; `DELETE` (full scope) clears it and answers `cleared` likewise.
 */
export const OVERLAY_HANDLERS = {
  getOverlay: engineRoute(async (req, engine) => {
    const swarm = pathParam(req, 's');
    if (!isName(swarm)) return { body: { swarm, events: [] } };
    return { body: redactSecrets(await engine.getOverlay(swarm)) };
  }),
  clearOverlay: engineRoute(async (req, engine) => {
    const swarm = pathParam(req, 's');
    if (!isName(swarm)) return { body: { status: 'cleared', swarm } };
    return { body: await engine.clearOverlay(swarm) };
  }),
} satisfies RouteHandlers;
