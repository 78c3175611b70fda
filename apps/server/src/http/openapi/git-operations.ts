/** The REST operations of git workspaces (an agent's changes, its diff, taking its work), spread into OPERATIONS. */
import { z } from 'zod';
import { ANSWER_SCHEMAS, COMMAND_SCHEMAS } from '@genswarms/engine';

const GIT_ERRORS = ['no_git_workspace', 'git_failed'] as const;

/** Operations of operations.ts (`as const` instead of its type: operations.ts imports this file). */
export const GIT_OPERATIONS = [
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/changes',
    operationId: 'agentGitChanges',
    tag: 'agents',
    summary: "An agent's git work: files changed from its clone's start (committed and not) and its branch's commits",
    scope: 'full',
    success: { status: 200, name: 'AgentChanges', schema: ANSWER_SCHEMAS.AgentChanges },
    errors: ['agent_not_found', ...GIT_ERRORS],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/diff',
    operationId: 'agentGitDiff',
    tag: 'agents',
    summary: "The unified diff of an agent's git work (committed and not), cut with a note past the size limit",
    scope: 'full',
    query: z.object({ stat: z.enum(['true', 'false']).optional().describe('A diffstat instead of the diff') }),
    success: { status: 200, name: 'AgentGitDiff', schema: ANSWER_SCHEMAS.AgentGitDiff },
    errors: ['agent_not_found', 'invalid_query', ...GIT_ERRORS],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/git/fetch',
    operationId: 'fetchGitWork',
    tag: 'swarms',
    summary: "Create or move the branch genswarms/<swarm>/<agent> of the operator's repository to each agent's work",
    scope: 'full',
    body: { name: 'GitFetchCommand', schema: COMMAND_SCHEMAS.GitFetchCommand },
    success: { status: 200, name: 'GitWorkFetched', schema: ANSWER_SCHEMAS.GitWorkFetched },
    errors: ['swarm_not_found', 'validation_failed', ...GIT_ERRORS],
  },
] as const;
