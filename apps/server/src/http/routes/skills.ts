import type { RouteHandlers } from './route-kit';
import { engineRoute, pathParam } from './route-kit';

/**
 * Read-only skills catalogue (docs/rest-api.md); relative paths only. The engine reads the files (the
 * server does no file I/O of its own). Not provided: editing skills.
 */
export const SKILL_HANDLERS = {
  listSkills: engineRoute(async (_req, engine) => ({ body: await engine.listSkills() })),
  readSkill: engineRoute(async (req, engine) => ({ body: await engine.readSkill(pathParam(req, 'name')) })),
} satisfies RouteHandlers;
