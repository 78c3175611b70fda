/** LLM budgets at run time and the audit trail of the metering egress (docs/rest-api.md). */
import { findUnenforceableBudget, llmLimitsOf, scaleGroupOf } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { BudgetPatchCommand, BudgetUpdated, LlmRequestList } from '../commands/llm-schemas';
import { applyRuntimeOps, type PendingOp } from './apply-ops';
import type { Ports } from './engine-context';
import { assertName } from './helpers';
import { storedAgent, swarmView } from './stored-view';
import type { SwarmRuntime } from './swarm-runtime';

/** The limit fields of a patch as the overlay stores them (null = removed). */
function limitFields(cmd: BudgetPatchCommand): Record<string, unknown> {
  return {
    ...(cmd.budget === undefined ? {} : { budget: cmd.budget }),
    ...(cmd.rate_limit === undefined ? {} : { rate_limit: cmd.rate_limit }),
  };
}

/** Applies `ops`, refuses a result where a limit could be spent past the relay, commits (the overlay records it). */
async function applyLimits(ctx: Ports<'clock' | 'limits' | 'pushes' | 'store'>, rt: SwarmRuntime, ops: PendingOp[]): Promise<void> {
  const applied = await applyRuntimeOps(ctx, rt, ops);
  const bad = findUnenforceableBudget(applied.effective.agents, applied.effective.options);
  if (bad !== null) {
    throw new EngineError(
      'budget_unenforceable',
      `Agent ${bad.agent} can reach its LLM past the egress relay (backend ${bad.backend}, network ${bad.network}); a budget or rate limit there cannot be enforced.`,
      { ...bad },
    );
  }
  await applied.commit();
}

/** PATCH an agent's limits: every member of its scaled group changes together (they share one budget). */
export async function patchAgentBudget(
  ctx: Ports<'clock' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  agent: string,
  cmd: BudgetPatchCommand,
): Promise<BudgetUpdated> {
  const rt = ctx.runtimes.running(swarm);
  assertName('agent', agent);
  if (rt.agentConfig(agent) === undefined) throw new EngineError('agent_not_found', `No agent named ${agent}.`, { agent });
  const group = scaleGroupOf(agent, rt.scaleBases);
  const members = rt.effective.agents
    .map((a) => a.name)
    .filter((n) => n === agent || (group !== agent && scaleGroupOf(n, rt.scaleBases) === group));
  const config = limitFields(cmd);
  await applyLimits(
    ctx,
    rt,
    members.map((target) => ({ op: 'update_config', payload: { target, config } })),
  );
  const now = llmLimitsOf(rt.agentConfig(agent));
  return { status: 'updated', swarm, agents: members, budget: now.budget ?? null, rate_limit: now.rate_limit ?? null };
}

/** PATCH the swarm's limits (`options.budget`, `options.rate_limit`, shared by every agent). */
export async function patchSwarmBudget(
  ctx: Ports<'clock' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  cmd: BudgetPatchCommand,
): Promise<BudgetUpdated> {
  const rt = ctx.runtimes.running(swarm);
  await applyLimits(ctx, rt, [{ op: 'set_options', payload: { options: limitFields(cmd) } }]);
  const now = llmLimitsOf(rt.swarmOptions());
  return { status: 'updated', swarm, agents: [], budget: now.budget ?? null, rate_limit: now.rate_limit ?? null };
}

/** One page of an agent's LLM calls, newest first (running or stopped swarm). */
export async function listLlmRequests(
  ctx: Ports<'runtimes' | 'store'>,
  swarm: string,
  agent: string,
  page: { readonly limit: number; readonly before?: number },
): Promise<LlmRequestList> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'stored') storedAgent(view.stored, agent);
  else {
    assertName('agent', agent);
    if (view.rt.agentConfig(agent) === undefined) throw new EngineError('agent_not_found', `No agent named ${agent}.`, { agent });
  }
  const requests = ctx.store.llmUsage.listRequests(swarm, agent, page.limit, page.before);
  const last = requests.at(-1);
  return { requests, next_before: requests.length === page.limit && last !== undefined ? last.id : null };
}
