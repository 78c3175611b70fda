/** Agent-level operations: tasks, messages, status, resume, restart, turns, logs (docs/messaging.md-15). */
import { isTurnId } from '@genswarms/receipts';
import { EngineError } from '../errors/engine-error';
import type { LogLine } from '../agents/agent-session';
import { OPERATOR_FROM } from '../agents/session-host';
import { routeDirect } from '../routing/router';
import { INBOX_LIMIT, type EnqueueResult, type TurnRow } from '../store/store';
import type { Ports } from './engine-context';
import { assertName } from './helpers';
import type { MessageCommand } from '../commands/command-schemas';
import { planAgent } from './launch';
import { agentStatus, type AgentStatus } from './status';
import { newItemId, type SwarmRuntime } from './swarm-runtime';
import { storedAgent, swarmView } from './stored-view';
import type { AgentSession } from '../agents/agent-session';

export function sessionOf(rt: SwarmRuntime, agent: string): AgentSession {
  assertName('agent', agent);
  const s = rt.session(agent);
  if (s === undefined) throw new EngineError('agent_not_found', `No agent named ${agent}.`, { agent });
  return s;
}

export async function sendTask(
  ctx: Ports<'clock' | 'events' | 'runtimes' | 'store'>,
  swarm: string,
  agent: string,
  task: string,
): Promise<{ status: 'sent'; agent: string; id: string; queued: number }> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'stored') {
    // A stopped swarm still in the store is known; its agents are stopped (409), never queued.
    storedAgent(view.stored, agent);
    throw new EngineError('agent_not_ready', `Agent ${agent} is stopped (swarm ${swarm} is not running).`, { agent, state: 'stopped' });
  }
  const rt = view.rt;
  const s = sessionOf(rt, agent);
  const refused = s.taskRefusal();
  if (refused?.code === 'agent_not_ready') {
    throw new EngineError('agent_not_ready', `Agent ${agent} is ${refused.state}.`, { agent, state: refused.state });
  }
  if (refused?.code === 'needs_attention') {
    throw new EngineError('needs_attention', `Agent ${agent} needs attention; resume or restart it first.`, {
      agent,
      reason: s.attention?.reason ?? 'unknown',
    });
  }
  // task_sent is committed with the item (one transaction): a task is never queued without it, nor it without the task.
  const sent = ctx.events.along((q: EnqueueResult) =>
    q.kind === 'ok'
      ? {
          type: 'task_sent',
          swarm,
          agent,
          message: `Task queued for ${agent}.`,
          metadata: { item_id: q.item.id, queued: q.queued, content_preview: task },
        }
      : null,
  );
  const r = await ctx.store.enqueue(
    {
      swarm,
      agent,
      id: newItemId(),
      kind: 'task',
      from: OPERATOR_FROM,
      content: task,
      now: ctx.clock.now().toISOString(),
      limit: INBOX_LIMIT,
    },
    sent,
  );
  if (r.kind === 'full') {
    await ctx.events.emit({
      type: 'inbox_full',
      swarm,
      agent,
      message: `Inbox of ${agent} is full; task refused.`,
      metadata: { limit: r.limit },
    });
    throw new EngineError('inbox_full', `The inbox of ${agent} is full.`, { agent, limit: r.limit });
  }
  ctx.events.announce(sent);
  s.kick();
  return { status: 'sent', agent, id: r.item.id, queued: r.queued };
}

/** POST /message: fire-and-forget; answers whether or not the route is allowed. */
export async function sendMessage(
  ctx: Ports<'runtimes'>,
  swarm: string,
  msg: MessageCommand,
): Promise<{ status: 'routed'; from: string; to: string; swarm: string }> {
  const rt = ctx.runtimes.running(swarm);
  const { from, to, content } = msg;
  await routeDirect(rt, { from, to, content, turn: null });
  return { status: 'routed', from, to, swarm };
}

export async function getAgent(ctx: Ports<'runtimes' | 'store'>, swarm: string, agent: string): Promise<AgentStatus> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'stored') {
    const config = storedAgent(view.stored, agent);
    return agentStatus(ctx.store, swarm, config, agent, undefined, await ctx.store.getSession(swarm, agent));
  }
  const s = sessionOf(view.rt, agent);
  return agentStatus(ctx.store, swarm, view.rt.agentConfig(agent), agent, s, null);
}

export async function listAgents(ctx: Ports<'runtimes' | 'store'>, swarm: string): Promise<{ agents: AgentStatus[] }> {
  const view = await swarmView(ctx, swarm);
  const agents: AgentStatus[] = [];
  const queued = await ctx.store.inboxSizes(swarm);
  if (view.kind === 'stored') {
    for (const a of view.stored.agents)
      agents.push(
        await agentStatus(ctx.store, swarm, a, a.name, undefined, await ctx.store.getSession(swarm, a.name), queued.get(a.name) ?? 0),
      );
    return { agents };
  }
  const rt = view.rt;
  for (const s of rt.sessionList())
    agents.push(await agentStatus(ctx.store, swarm, rt.agentConfig(s.name), s.name, s, null, queued.get(s.name) ?? 0));
  return { agents };
}

/** 404s unless the agent exists in the running swarm, or in the stored view of a stopped one. */
export async function assertKnownAgent(ctx: Ports<'runtimes' | 'store'>, swarm: string, agent: string): Promise<AgentSession | undefined> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'running') return sessionOf(view.rt, agent);
  storedAgent(view.stored, agent);
  return undefined;
}

export async function resumeAgent(
  ctx: Ports<'events' | 'runtimes'>,
  swarm: string,
  agent: string,
): Promise<{ status: 'resumed'; agent: string; state: 'idle' | 'busy' }> {
  const s = sessionOf(ctx.runtimes.running(swarm), agent);
  // a client that showed a dialog mid-turn (client_prompt_blocked) still has that turn open: it goes on with it
  const resumed = await s.resume();
  if (resumed.kind === 'refused')
    throw new EngineError('invalid_state', `Agent ${agent} is ${resumed.state}, not needs_attention.`, { agent, state: resumed.state });
  const state = resumed.state;
  await ctx.events.emit({ type: 'agent_resumed', swarm, agent, message: `Agent ${agent} resumed by the operator.` });
  s.kick();
  return { status: 'resumed', agent, state };
}

export async function restartAgent(
  ctx: Ports<'events' | 'paths' | 'runtimes'>,
  swarm: string,
  agent: string,
): Promise<{ status: 'restarted'; agent: string }> {
  const rt = ctx.runtimes.running(swarm);
  const s = sessionOf(rt, agent);
  const config = rt.agentConfig(agent);
  if (config === undefined) throw new EngineError('agent_not_found', `No agent named ${agent}.`, { agent });
  const plan = await planAgent(rt, ctx.paths.home, config);
  await s.stop(null);
  if (await s.launch(plan)) await s.becomeReady(); // the launch takes the new plan's spec and drops any hold
  await ctx.events.emit({ type: 'agent_restarted', swarm, agent, message: `Agent ${agent} restarted.` });
  return { status: 'restarted', agent };
}

export interface TurnView {
  readonly id: string;
  readonly item_id: string;
  readonly from: string;
  readonly status: string;
  readonly reason?: string;
  readonly error?: string;
  readonly started_at: string;
  readonly completed_at: string | null;
  readonly reply_preview: string | null;
}

/** One turn with its whole reply (agent-written text, a JSON string; null when there is none or it predates schema v4). */
export interface TurnDetail extends TurnView {
  readonly reply: string | null;
}

function turnView(t: TurnRow): TurnView {
  return {
    id: t.id,
    item_id: t.itemId,
    from: t.from,
    status: t.status,
    ...(t.reason === null ? {} : { reason: t.reason }),
    ...(t.error === null ? {} : { error: t.error }),
    started_at: t.startedAt,
    completed_at: t.completedAt,
    reply_preview: t.replyPreview,
  };
}

export async function listTurns(
  ctx: Ports<'runtimes' | 'store'>,
  swarm: string,
  agent: string,
  limit = 50,
): Promise<{ turns: TurnView[] }> {
  await assertKnownAgent(ctx, swarm, agent);
  const rows = await ctx.store.listTurns(swarm, agent, limit);
  return { turns: rows.map(turnView) };
}

/**
 * One turn of the agent with its full reply. An id off the turn-id grammar, an unknown id and a turn of
 * another agent (or swarm) all answer `turn_not_found`; the id is echoed only when it is on-grammar.
 */
export async function getTurn(ctx: Ports<'runtimes' | 'store'>, swarm: string, agent: string, turn: string): Promise<TurnDetail> {
  await assertKnownAgent(ctx, swarm, agent);
  const row = isTurnId(turn) ? await ctx.store.getTurn(turn) : null;
  if (row === null || row.swarm !== swarm || row.agent !== agent) {
    throw new EngineError('turn_not_found', 'No such turn of this agent.', isTurnId(turn) ? { agent, turn } : { agent });
  }
  return { ...turnView(row), reply: await ctx.store.getTurnReply(row.id) };
}

/** Lines of a TUI agent's screen kept in an answer (the newest). */
export const SCREEN_MAX_LINES = 2000;

/**
 * A TUI agent's pane text now (scrollback + screen, plain text), or `null` when there is none to show: a
 * headless agent (its output is `agentLogs`), an agent not running, or a pane that cannot be read.
 */
export async function agentScreen(ctx: Ports<'runtimes' | 'store'>, swarm: string, agent: string): Promise<{ screen: string[] | null }> {
  const s = await assertKnownAgent(ctx, swarm, agent);
  const capture = s?.handle?.captureScreen?.bind(s.handle);
  if (capture === undefined) return { screen: null };
  // expected: a pane that dies between the check and the capture has no screen to show
  const lines = await capture().catch(() => null);
  return { screen: lines === null ? null : lines.slice(-SCREEN_MAX_LINES) };
}

/**
 * The last 500 lines of the running process; `[]` for TUI agents (a tmux pane, a local pty: their screen is
 * `agentScreen`, the raw terminal output is no use as lines) and agents of a stopped swarm.
 */
export async function agentLogs(ctx: Ports<'runtimes' | 'store'>, swarm: string, agent: string): Promise<{ logs: LogLine[] }> {
  const s = await assertKnownAgent(ctx, swarm, agent);
  return { logs: s === undefined || s.isTui || s.handle?.captureScreen !== undefined ? [] : s.logs.slice(-500) };
}
