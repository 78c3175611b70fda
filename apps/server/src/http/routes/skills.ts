import { EngineError } from '@genswarms/engine';
import { listSkills, readSkill } from '../../skills/skills-catalogue';
import type { RouteModule } from '../route-module';
import { handle, pathParam } from './route-kit';

/** Read-only skills catalogue (CONTRACT §15); relative paths only. Not provided: editing skills. */
export const skillsRoute: RouteModule = {
  name: 'skills',
  endpoints: ['GET /api/skills', 'GET /api/skills/:name'],
  register(router, ctx): void {
    const root = ctx.config.skillsRoot;
    router.get(
      '/api/skills',
      handle(async () => {
        const skills = await listSkills(root);
        return { body: { skills, count: skills.length } };
      }),
    );
    router.get(
      '/api/skills/:name',
      handle(async (req) => {
        const read = await readSkill(root, pathParam(req, 'name'));
        if (read.kind === 'invalid_name') throw new EngineError('invalid_name', 'Not a valid skill name.');
        if (read.kind === 'not_found') return { status: 404, body: { error: 'not_found', message: 'No such skill.' } };
        return { body: { name: read.name, content: read.content, size: read.size } };
      }),
    );
  },
};
