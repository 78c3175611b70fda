import type { RouteModule } from '../route-module';
import { handle, pathParam } from './route-kit';

/**
 * Read-only skills catalogue (docs/rest-api.md); relative paths only. The engine reads the files (the
 * server does no file I/O of its own). Not provided: editing skills.
 */
export const skillsRoute: RouteModule = {
  name: 'skills',
  endpoints: ['GET /api/skills', 'GET /api/skills/:name'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get(
      '/api/skills',
      handle(async () => ({ body: await engine.listSkills() })),
    );
    router.get(
      '/api/skills/:name',
      handle(async (req) => ({ body: await engine.readSkill(pathParam(req, 'name')) })),
    );
  },
};
