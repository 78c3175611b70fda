/** The operations of the metering egress: LLM budgets at run time and the audit trail. */
import { z } from 'zod';
import { ANSWER_SCHEMAS, COMMAND_SCHEMAS } from '@genswarms/engine';
import type { Operation } from './operation';

const BUDGET_ERRORS = ['swarm_not_found', 'validation_failed', 'budget_unenforceable'] as const;

export const LLM_OPERATIONS = [
  {
    method: 'patch',
    path: '/api/swarms/:s/agents/:a/budget',
    operationId: 'patchAgentBudget',
    tag: 'agents',
    summary: "Raise, lower or remove an agent's LLM budget or rate limit (its scaled group changes together)",
    scope: 'full',
    body: { name: 'BudgetPatchCommand', schema: COMMAND_SCHEMAS.BudgetPatchCommand },
    success: { status: 200, name: 'BudgetUpdated', schema: ANSWER_SCHEMAS.BudgetUpdated },
    errors: [...BUDGET_ERRORS, 'agent_not_found'],
  },
  {
    method: 'patch',
    path: '/api/swarms/:s/budget',
    operationId: 'patchSwarmBudget',
    tag: 'swarms',
    summary: "Raise, lower or remove the swarm's shared LLM budget or rate limit",
    scope: 'full',
    body: { name: 'BudgetPatchCommand', schema: COMMAND_SCHEMAS.BudgetPatchCommand },
    success: { status: 200, name: 'BudgetUpdated', schema: ANSWER_SCHEMAS.BudgetUpdated },
    errors: BUDGET_ERRORS,
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/llm-requests',
    operationId: 'listLlmRequests',
    tag: 'agents',
    summary: "An agent's LLM calls through the metering egress, newest first (never a prompt, completion, header or key)",
    scope: 'full',
    query: z.object({
      limit: z.int().min(1).max(500).optional().describe('At most this many entries, 1-500 (default 100)'),
      before: z.int().min(1).optional().describe('Only entries older than this id (the `next_before` of the previous page)'),
    }),
    success: { status: 200, name: 'LlmRequestList', schema: ANSWER_SCHEMAS.LlmRequestList },
    errors: ['swarm_not_found', 'agent_not_found', 'invalid_query'],
  },
] as const satisfies readonly Operation[];
