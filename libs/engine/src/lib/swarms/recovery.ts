/**
 * Recovery on `Engine.open()` (docs/receipts.md): for each swarm that was running, re-attach tmux panes and
 * containers, restart headless sessions and resume the SAME in-flight turn (same id, same inbox file),
 * re-arm receipt watchers, keep queued items, and mark sessions that cannot come back `failed`.
 */
import { gateStart, type SwarmState } from '@genswarms/ir-gate';
import type { BackendKind, LaunchPlan, RunnerHandle, SessionDescription } from '@genswarms/runners';
import { AgentSession } from '../agents/agent-session';
import { startFailureOf } from '../agents/agent-failure';
import { readHostReceipt, TURN_CANCELLED_ERROR, writeHostReceipt } from '../agents/host-receipt';
import type { SwarmRow, TurnRow } from '../store/store';
import type { Ports } from './engine-context';
import { markRunning, stopRuntime } from './lifecycle';
import { toOverlayEvents } from './helpers';
import { planAgent, startObjects } from './launch';
import { SwarmRuntime } from './swarm-runtime';
import { claimRecoveryRoom, recordHostLimitRecovery } from './recovery-host-limit';

/** Backends whose processes outlive the server and are re-attached at recovery; all others are restarted. */
export const REATTACHABLE: ReadonlySet<string> = new Set(['tmux', 'docker', 'ssh', 'swarm']);

async function reattach(rt: SwarmRuntime, agent: string, description: unknown, backend: string): Promise<RunnerHandle | null> {
  if (description === null || typeof description !== 'object' || !rt.runners.has(backend as BackendKind)) return null;
  const runner = rt.runners.get(backend as BackendKind);
  if (runner.reattach === undefined) return null;
  if (!REATTACHABLE.has(backend)) {
    // Never adopted (local: the client died with the server), but its runner kills what escaped the client.
    // expected: a kill that fails here is tried again by the agent's next start, which reports it
    await runner.reattach(description as SessionDescription, rt.contextFor(agent)).catch(() => null);
    return null;
  }
  // expected: a pane or container that did not survive cannot be re-attached; the agent is restarted instead
  return runner.reattach(description as SessionDescription, rt.contextFor(agent)).catch(() => null);
}

async function recoverAgent(ctx: Ports<'paths' | 'store'>, rt: SwarmRuntime, name: string, openTurn: TurnRow | undefined): Promise<void> {
  const config = rt.agentConfig(name);
  const row = await ctx.store.getSession(rt.swarm, name);
  if (config === undefined) return;
  let plan;
  try {
    plan = await planAgent(rt, ctx.paths.home, config);
  } catch (e) {
    // What outlived the server for this agent (a pane, a container) must not run on unowned.
    await stopLeftover(rt, name, row?.description ?? null);
    const s = new AgentSession(rt, name, { ...placeholderSpec(rt.swarm, name) });
    rt.addSession(s);
    await s.persist(null);
    const why = startFailureOf(e);
    await s.fail(
      { ...why, code: 'recovery_plan_failed', message: `after the restart the agent no longer plans (${why.code}: ${why.message})` },
      { code: why.code },
    );
    return;
  }
  const handle = await reattach(rt, name, row?.description ?? null, plan.spec.backend);
  if (handle === null) await stopUnrecordedPane(rt, plan);
  const session = new AgentSession(rt, name, plan.spec);
  rt.addSession(session);
  const hostEnded = openTurn === undefined ? null : await readHostReceipt(plan.spec.workspace, openTurn.id);
  const launched = await session.launch(plan, handle);
  if (openTurn !== undefined && (!launched || hostEnded !== null)) {
    // Launch failed: the turn is cancelled (receipt first). Host receipt found: the engine ended this
    // turn and crashed before the store said so — settle it as meant, never redeliver it.
    await settleEnded(session, openTurn, hostEnded ?? (await cancelWithReceipt(session, openTurn.id)));
  }
  if (!launched) return;
  if (openTurn === undefined || hostEnded !== null) {
    await session.becomeReady(row?.state === 'needs_attention' ? row.needsAttention : null);
    return;
  }
  await session.becomeBusyWith(openTurn, handle === null);
}

/** Re-attaches a stored session only to stop it (its runner removes what it owns); absent is fine. */
async function stopLeftover(rt: SwarmRuntime, agent: string, description: unknown): Promise<void> {
  const desc = isDescription(description) ? description : null;
  // the ids it ran as (held in the store): a leftover is re-attached as what it is, to be stopped
  await rt
    .ensureIdentity(agent)
    .catch((e: unknown) =>
      rt.events.reportFailure({ where: 'recovery', swarm: rt.swarm, agent, error: e, metadata: { step: 'identity' } }),
    );
  const handle = desc === null ? null : await reattach(rt, agent, desc, desc.backend);
  // A leftover that cannot be stopped may run on unowned: reported, recovery goes on.
  await handle
    ?.stop({ graceMs: 2000 })
    .catch((e: unknown) =>
      rt.events.reportFailure({ where: 'recovery', swarm: rt.swarm, agent: null, error: e, metadata: { step: 'stop_leftover' } }),
    );
}

/**
 * A tmux window of this agent that the stored description does not lead to (the previous server was killed
 * between creating it and recording it, or the pane is not the recorded one) would make the start refuse
 * (`already running`) and the agent fail: it is re-attached by its target alone and stopped, so the agent
 * starts once, fresh (SIGKILL mid-start).
 */
async function stopUnrecordedPane(rt: SwarmRuntime, plan: LaunchPlan): Promise<void> {
  const { spec } = plan;
  if (spec.backend !== 'tmux') return;
  await stopLeftover(rt, spec.agent, {
    sessionId: plan.sessionId,
    backend: 'tmux',
    runner: spec.runner ?? 'none',
    network: '',
    client: '',
    tmuxTarget: `=${rt.swarm}:=${spec.agent}`,
    envNames: [],
    workspace: spec.workspace,
    stateDir: plan.stateDir,
    notices: [],
  });
}

async function cancelWithReceipt(session: AgentSession, turnId: string): Promise<string> {
  await writeHostReceipt(session.workspace, turnId, TURN_CANCELLED_ERROR);
  return TURN_CANCELLED_ERROR;
}

async function settleEnded(session: AgentSession, turn: TurnRow, hostError: string): Promise<void> {
  if ((await session.turns.settleFromHostReceipt(turn, hostError)) && hostError === TURN_CANCELLED_ERROR)
    await session.settleCancelled(turn.id);
}

function placeholderSpec(swarm: string, agent: string): ConstructorParameters<typeof AgentSession>[2] {
  return {
    swarm,
    agent,
    backend: 'mock',
    client: 'genswarms-agent',
    network: 'open',
    workspace: '/nonexistent',
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: {},
    backendOpts: {},
  };
}

/** The stored seed config ⊕ overlay through the start gate, as a start would see it. */
async function gateStored(ctx: Ports<'handlers' | 'store'>, row: SwarmRow): Promise<ReturnType<typeof gateStart>> {
  const overlay = toOverlayEvents(await ctx.store.listOverlay(row.name));
  return gateStart(row.config, {
    ...(row.baseDir === null ? {} : { baseDir: row.baseDir }),
    handlers: ctx.handlers.names(),
    overlayEvents: overlay,
  });
}

type RecoveryPorts = Ports<'clock' | 'events' | 'handlers' | 'limits' | 'paths' | 'pushes' | 'runtimeDeps' | 'runtimes' | 'store'>;

export async function recoverSwarm(ctx: RecoveryPorts, row: SwarmRow): Promise<void> {
  const gate = await gateStored(ctx, row);
  if (gate.kind === 'refused') {
    await ctx.store.setSwarmStatus(row.name, 'error', ctx.clock.now().toISOString());
    await ctx.events.emit({
      type: 'swarm_start_failed',
      swarm: row.name,
      agent: null,
      message: `Swarm ${row.name} could not be recovered.`,
      metadata: { error: gate.error },
    });
    return;
  }
  const rt = new SwarmRuntime(ctx.runtimeDeps(), row.name, gate.state, row.config, row.baseDir, row.startedAt ?? undefined);
  const sessions = await ctx.store.listSessions(row.name);
  const stored = new Map(sessions.map((s) => [s.agent, isDescription(s.description) ? s.description.backend : null]));
  const agents = gate.effective.agents.map((config) => ({ config, storedBackend: stored.get(config.name) ?? null }));
  // the host's limits are charged before anything is re-attached or started, and held until the launches are done
  const room = claimRecoveryRoom(ctx, agents, REATTACHABLE);
  if (room.kind === 'refused') {
    for (const s of sessions) if (isDescription(s.description)) await stopLeftover(rt, s.agent, s.description);
    await recordHostLimitRecovery(ctx, row.name, room);
    return;
  }
  try {
    rt.noteScaleBases(await ctx.store.listOverlay(row.name));
    ctx.runtimes.add(rt);
    await startObjects(rt, ctx.handlers, gate.effective.objects ?? []);
    const open = await ctx.store.listOpenTurns(rt.swarm);
    for (const a of gate.effective.agents)
      await recoverAgent(
        ctx,
        rt,
        a.name,
        open.find((t) => t.agent === a.name),
      );
    await markRunning(ctx, rt);
  } finally {
    room.release();
  }
}

/**
 * A swarm the previous server was stopping when it died (status `stopping`): finish that stop instead
 * of leaving its panes and containers running unowned. Nothing is relaunched: what can be re-attached
 * is re-attached only to be stopped, open turns are cancelled receipt-first (never answerable again),
 * queued items are dropped, and the swarm ends `stopped` with the usual events.
 */
export async function finishInterruptedStop(ctx: RecoveryPorts, row: SwarmRow): Promise<void> {
  const gate = await gateStored(ctx, row);
  // A config the gate now refuses still gets its leftovers stopped: an empty state, agents from the store.
  const state: SwarmState =
    gate.kind === 'refused'
      ? { v: 1, kind: 'swarm.state', name: row.name, phase: 'desired', agents: [], objects: [], topology: [], options: {} }
      : gate.state;
  const rt = new SwarmRuntime(ctx.runtimeDeps(), row.name, state, row.config, row.baseDir);
  ctx.runtimes.add(rt);
  const open = await ctx.store.listOpenTurns(rt.swarm);
  for (const sessionRow of await ctx.store.listSessions(rt.swarm)) {
    await adoptToStop(
      ctx,
      rt,
      sessionRow.agent,
      sessionRow.description,
      open.find((t) => t.agent === sessionRow.agent),
    );
  }
  await stopRuntime(ctx, rt);
}

async function adoptToStop(
  ctx: Ports<'paths'>,
  rt: SwarmRuntime,
  name: string,
  description: unknown,
  openTurn: TurnRow | undefined,
): Promise<void> {
  const desc = isDescription(description) ? description : null;
  const config = rt.agentConfig(name);
  // expected: a config that no longer plans is stopped through its stored description instead
  const plan = config === undefined ? null : await planAgent(rt, ctx.paths.home, config).catch(() => null);
  const handle = desc === null || plan === null ? null : await reattach(rt, name, desc, desc.backend);
  if (plan === null) await stopLeftover(rt, name, desc);
  const spec = plan?.spec ?? { ...placeholderSpec(rt.swarm, name), workspace: desc?.workspace ?? '/nonexistent' };
  const session = new AgentSession(rt, name, spec);
  rt.addSession(session);
  if (handle !== null && plan !== null) await session.launch(plan, handle);
  if (openTurn !== undefined) {
    const hostEnded = await readHostReceipt(session.workspace, openTurn.id);
    await settleEnded(session, openTurn, hostEnded ?? (await cancelWithReceipt(session, openTurn.id)));
  }
}

function isDescription(value: unknown): value is SessionDescription {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['backend'] === 'string' && typeof v['workspace'] === 'string' && typeof v['sessionId'] === 'string';
}
