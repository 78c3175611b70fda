/** Planning and launching agents and objects of a runtime (plan everything first; only then spawn). */
import { findUnenforceableBudget, type AgentConfig, type ObjectConfig } from '@genswarms/ir-gate';
import type { LaunchPlan } from '@genswarms/runners';
import { AgentSession } from '../agents/agent-session';
import { buildLaunchSpec, createWorkspace, planWorkspace, toEngineError } from '../agents/launch-spec';
import { EngineError } from '../errors/engine-error';
import { planGitWorkspace, prepareGitWorkspace, rememberGitSource } from '../git/git-workspace';
import { mapBounded, PLAN_CONCURRENCY, type Limiter } from './bounded';
import type { HandlerRegistry } from '../objects/handler';
import { ObjectInstance } from '../objects/object-instance';
import type { AttentionInfo } from '../store/store';
import { objectStatePersister, restoreObjectState } from './object-state-store';
import type { SwarmRuntime } from './swarm-runtime';

/** Plans one agent without touching the disk: the runner plan reads metadata only. */
export async function planAgentOnly(rt: SwarmRuntime, home: string, agent: AgentConfig, targets?: readonly string[]): Promise<LaunchPlan> {
  await rt.ensureIdentity(agent.name); // its own ids (a root server with a range) own what its plan checks and creates
  const ctx = rt.contextFor(agent.name);
  const workspace = await planWorkspace(home, rt.swarm, agent, ctx).catch((e: unknown) => {
    throw e instanceof EngineError
      ? e
      : new EngineError('unsafe_workspace', 'The workspace could not be prepared.', { agent: agent.name }, { cause: e });
  });
  const git = await planGitWorkspace(agent, ctx);
  const unmetered = findUnenforceableBudget([agent], rt.swarmOptions());
  if (unmetered !== null) {
    throw new EngineError(
      'budget_unenforceable',
      `Agent ${agent.name} can reach its LLM past the egress relay (backend ${unmetered.backend}, network ${unmetered.network}); a budget or rate limit there cannot be enforced.`,
      { ...unmetered },
    );
  }
  const spec = buildLaunchSpec(rt.swarm, agent, workspace, targets ?? rt.topology.targets(agent.name));
  const runner = rt.runners.get(spec.backend);
  try {
    const plan = runner.plan(spec, ctx);
    await runner.preflight?.(plan, ctx); // engine-side facts (the docker image), still creating nothing
    rememberGitSource(plan, git);
    return plan;
  } catch (e) {
    throw toEngineError(e, agent.name);
  }
}

/** Creates the workspace a plan was made for; only after the plan (and its siblings') passed. */
export async function prepareWorkspace(rt: SwarmRuntime, plan: LaunchPlan): Promise<void> {
  createWorkspace(rt.contextFor(plan.spec.agent), plan.spec.workspace, plan.spec.agent); // synchronous walk: a few metadata calls
  await prepareGitWorkspace(plan, rt.contextFor(plan.spec.agent));
}

/** Plans one agent, then creates its workspace: a refused plan creates nothing. */
export async function planAgent(rt: SwarmRuntime, home: string, agent: AgentConfig, targets?: readonly string[]): Promise<LaunchPlan> {
  const plan = await planAgentOnly(rt, home, agent, targets);
  await prepareWorkspace(rt, plan);
  return plan;
}

/**
 * Plans every agent, then creates their workspaces: a refusal throws (the first in config order) and
 * nothing was created or spawned. Plans and creations run a few at once (one by one, a plan's
 * realpath and mkdir round trips made planning a 1,000-agent swarm take seconds before the first spawn).
 */
export async function planAll(rt: SwarmRuntime, home: string, agents: readonly AgentConfig[]): Promise<Map<string, LaunchPlan>> {
  const planned = await mapBounded(agents, PLAN_CONCURRENCY, (a) => planAgentOnly(rt, home, a));
  await mapBounded(planned, PLAN_CONCURRENCY, (plan) => prepareWorkspace(rt, plan));
  return new Map(planned.map((plan) => [plan.spec.agent, plan]));
}

/**
 * Starts one agent and waits until it is ready. With `slots` only the start takes a launch slot: a TUI client's
 * wait for its ready screen (seconds; up to its ready timeout when it is stuck) holds none.
 */
export async function launchAgent(
  rt: SwarmRuntime,
  plan: LaunchPlan,
  keep: AttentionInfo | null = null,
  slots?: Limiter,
): Promise<AgentSession> {
  const session = new AgentSession(rt, plan.spec.agent, plan.spec);
  rt.addSession(session);
  const launched = slots === undefined ? await session.launch(plan) : await slots.run(() => session.launch(plan));
  if (launched) await session.becomeReady(keep);
  return session;
}

/**
 * Starts an object. With `restore` (swarm start, restart, recovery) a saved state of the same handler
 * is taken instead of running `init`; a new object (`addObject`) always runs `init`.
 */
export async function startObject(
  rt: SwarmRuntime,
  handlers: HandlerRegistry,
  o: ObjectConfig,
  opts: { restore: boolean },
): Promise<ObjectInstance> {
  const handler = handlers.get(o.handler);
  if (handler === undefined) throw new EngineError('invalid_handler', `Handler ${o.handler} is not registered.`, { handler: o.handler });
  const inst = new ObjectInstance(o.name, o.handler, handler, (o.config ?? {}) as Record<string, unknown>);
  inst.persister = objectStatePersister(rt);
  rt.addObject(inst);
  const restored = opts.restore && (await restoreObjectState(rt, inst));
  const r = restored ? { ok: true as const } : await inst.start();
  await rt.events.emit(
    r.ok
      ? {
          type: 'object_started',
          swarm: rt.swarm,
          agent: o.name,
          message: `Object ${o.name} started${restored ? ' with its saved state' : ''}.`,
          metadata: { handler: o.handler, restored },
        }
      : {
          type: 'object_error',
          swarm: rt.swarm,
          agent: o.name,
          message: `Object ${o.name} failed to initialise.`,
          metadata: { handler: o.handler, error: r.error },
        },
  );
  return inst;
}

/** Starts the swarm's objects, restoring saved states; states of objects no longer configured are dropped. */
export async function startObjects(rt: SwarmRuntime, handlers: HandlerRegistry, objects: readonly ObjectConfig[]): Promise<void> {
  await rt.store.pruneObjectStates(
    rt.swarm,
    objects.map((o) => o.name),
  );
  for (const o of objects) await startObject(rt, handlers, o, { restore: true });
}
