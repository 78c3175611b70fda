import { parseGitFetchCommand } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { flagQuery, handle, nameParam } from './route-kit';

/** Git workspaces (docs/rest-api.md "Git workspaces"): an agent's changes and diff, and taking the work into the operator's repository. */
export const gitWorkRoute: RouteModule = {
  name: 'git-work',
  endpoints: ['GET /api/swarms/:s/agents/:a/changes', 'GET /api/swarms/:s/agents/:a/diff', 'POST /api/swarms/:s/git/fetch'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.get(
      '/api/swarms/:s/agents/:a/changes',
      handle(async (req) => ({ body: await engine.agentGitChanges(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')) })),
    );
    router.get(
      '/api/swarms/:s/agents/:a/diff',
      handle(async (req) => {
        const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
        return { body: await engine.agentGitDiff(swarm, agent, { stat: flagQuery(req, 'stat') }) };
      }),
    );
    router.post(
      '/api/swarms/:s/git/fetch',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        const cmd = parseGitFetchCommand(req.body);
        return {
          body: await engine.fetchGitWork(swarm, {
            ...(cmd.agents === undefined ? {} : { agents: cmd.agents }),
            includeUncommitted: cmd.include_uncommitted === true,
          }),
        };
      }),
    );
  },
};
