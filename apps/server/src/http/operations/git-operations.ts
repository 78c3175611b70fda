/** Git workspaces (docs/rest-api.md "Git workspaces"): an agent's changes and diff, and taking its work. */
import { flag, ok, body } from './kit';
import type { Operation } from './operation';

const GIT_ERRORS = ['no_git_workspace', 'git_failed'] as const;

export const GIT_OPERATIONS = [
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/changes',
    operationId: 'agentGitChanges',
    tag: 'agents',
    summary: "An agent's git work: files changed from its clone's start (committed and not) and its branch's commits",
    scope: 'full',
    success: ok('AgentChanges'),
    errors: ['agent_not_found', ...GIT_ERRORS],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/diff',
    operationId: 'agentGitDiff',
    tag: 'agents',
    summary: "The unified diff of an agent's git work (committed and not), cut with a note past the size limit",
    scope: 'full',
    query: flag('stat', 'A diffstat instead of the diff'),
    success: ok('AgentGitDiff'),
    errors: ['agent_not_found', 'invalid_query', ...GIT_ERRORS],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/git/fetch',
    operationId: 'fetchGitWork',
    tag: 'swarms',
    summary: "Create or move the branch genswarms/<swarm>/<agent> of the operator's repository to each agent's work",
    scope: 'full',
    body: body('GitFetchCommand'),
    success: ok('GitWorkFetched'),
    errors: ['swarm_not_found', 'validation_failed', ...GIT_ERRORS],
  },
] as const satisfies readonly Operation[];
