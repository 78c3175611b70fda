import { parseGitFetchCommand } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, flagQuery, nameParam } from './route-kit';

/** Git workspaces (docs/rest-api.md "Git workspaces"): an agent's changes and diff, and taking the work into the operator's repository. */
export const GIT_WORK_HANDLERS = {
  agentGitChanges: engineRoute(async (req, engine) => ({
    body: await engine.agentGitChanges(nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')),
  })),
  agentGitDiff: engineRoute(async (req, engine) => {
    const [swarm, agent] = [nameParam(req, 's', 'swarm'), nameParam(req, 'a', 'agent')];
    return { body: await engine.agentGitDiff(swarm, agent, { stat: flagQuery(req, 'stat') }) };
  }),
  fetchGitWork: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    const cmd = parseGitFetchCommand(req.body);
    return {
      body: await engine.fetchGitWork(swarm, {
        ...(cmd.agents === undefined ? {} : { agents: cmd.agents }),
        includeUncommitted: cmd.include_uncommitted === true,
      }),
    };
  }),
} satisfies RouteHandlers;
