/** docs/rest-api.md status shapes (redacted). */
import { redactSecrets } from '@genswarms/security';
import { viewBackend, type AgentConfig } from '@genswarms/ir-gate';
import type { IsolationReport } from '@genswarms/runners';
import type { AgentFailure } from '../agents/agent-failure';
import type { AgentSession } from '../agents/agent-session';
import { stateEpoch } from '../agents/state-epoch';
import type { TopologyEntry } from '../events/pushes';
import type { AttentionInfo, SessionRow, Store, SwarmHead, SwarmStatus } from '../store/store';
import type { LlmUsageTotals } from '../store/llm-usage';
import type { StoredSwarm } from './stored-view';
import type { SwarmRuntime } from './swarm-runtime';

export interface AgentStatus {
  readonly name: string;
  readonly swarm: string;
  readonly state: string;
  readonly backend: string;
  readonly client: string;
  readonly network: string;
  readonly inbox_size: number;
  readonly awaiting: boolean;
  readonly turn: string | null;
  /** When the current turn started (ISO 8601), null without one: the operator view shows its age. */
  readonly turn_started_at: string | null;
  readonly needs_attention: AttentionInfo | null;
  /** Why the agent is `failed`: code, one actionable sentence, detail fields; null otherwise. */
  readonly failure: AgentFailure | null;
  readonly started_at: string | null;
  readonly last_activity: string | null;
  /** What the live process can really do, read after start and re-attach; null when not checked (docs/runners.md). */
  readonly isolation: IsolationReport | null;
  /** ssh agents only: false with `silently_accept_hosts: true` (docs/security.md "ssh trust model"). */
  readonly host_key_verified?: boolean;
  /** Git workspaces only: the agent's branch (its work: `…/changes`, `…/diff`, `POST …/git/fetch`). */
  readonly git_branch?: string;
  /** LLM calls through the metering egress (zeros for an agent that made none, or is not isolated). */
  readonly llm_usage: LlmUsageTotals;
}

export interface ObjectStatus {
  readonly name: string;
  readonly handler: string;
  readonly state: string;
}

export interface SwarmDetail {
  readonly name: string;
  readonly status: SwarmStatus;
  readonly started_at: string | null;
  readonly agent_count: number;
  readonly object_count: number;
  readonly agents: readonly AgentStatus[];
  readonly objects: readonly ObjectStatus[];
  readonly topology: readonly TopologyEntry[];
  /** The LLM usage of every agent the swarm had, summed. */
  readonly llm_usage: LlmUsageTotals;
}

export interface SwarmSummary {
  readonly name: string;
  readonly status: SwarmStatus;
  readonly started_at: string | null;
  readonly agent_count: number;
  readonly object_count: number;
  /** How many agents are in each state (`idle: 3, failed: 1`); states with no agent are left out. */
  readonly agents_by_state: Readonly<Record<string, number>>;
}

function clientLabel(a: AgentConfig | undefined): string {
  const c = a?.client ?? 'genswarms-agent';
  return typeof c === 'string' ? c : 'command';
}

function gitBranchField(swarm: string, a: AgentConfig | undefined): { git_branch?: string } {
  return a !== undefined && typeof a.workspace === 'object' ? { git_branch: `genswarms/${swarm}/${a.name}` } : {};
}

function sshHostKeyField(a: AgentConfig | undefined): { host_key_verified?: boolean } {
  const b = viewBackend(a?.backend);
  return b.type === 'ssh' ? { host_key_verified: b.opts?.['silently_accept_hosts'] !== true } : {};
}

export async function agentStatus(
  store: Store,
  swarm: string,
  config: AgentConfig | undefined,
  name: string,
  s: AgentSession | undefined,
  row: SessionRow | null,
  queued?: number,
): Promise<AgentStatus> {
  const turn = s?.turns.currentId() ?? null;
  const turnRow = turn === null ? null : await store.getTurn(turn);
  return {
    name,
    swarm,
    state: s?.state ?? row?.state ?? 'stopped',
    backend: viewBackend(config?.backend).type,
    client: clientLabel(config),
    network: config?.network ?? 'open',
    inbox_size: queued ?? (await store.inboxSize(swarm, name)),
    awaiting: s?.awaiting ?? false,
    turn,
    turn_started_at: turnRow?.startedAt ?? null,
    needs_attention: s?.attention ?? row?.needsAttention ?? null,
    failure: s?.failure ?? null,
    started_at: s?.startedAt ?? row?.startedAt ?? null,
    last_activity: s?.lastActivity ?? row?.lastActivity ?? null,
    isolation: s?.isolation ?? null,
    ...sshHostKeyField(config),
    ...gitBranchField(swarm, config),
    llm_usage: store.llmUsage.usage(swarm, name),
  };
}

export async function runtimeDetail(rt: SwarmRuntime): Promise<SwarmDetail> {
  const agents: AgentStatus[] = [];
  const queued = await rt.store.inboxSizes(rt.swarm);
  for (const a of rt.effective.agents)
    agents.push(await agentStatus(rt.store, rt.swarm, a, a.name, rt.session(a.name), null, queued.get(a.name) ?? 0));
  const objects = (rt.effective.objects ?? []).map((o) => ({
    name: o.name,
    handler: o.handler,
    state: rt.object(o.name)?.lifecycle ?? 'stopped',
  }));
  return {
    name: rt.swarm,
    status: rt.status,
    started_at: rt.startedAt,
    agent_count: agents.length,
    object_count: objects.length,
    agents,
    objects,
    topology: rt.topology.entries(),
    llm_usage: rt.store.llmUsage.swarmUsage(rt.swarm),
  };
}

/** Detail of a stopped swarm still in the store: its configured agents (with their last session row), objects and topology. */
export async function storedDetail(store: Store, stored: StoredSwarm): Promise<SwarmDetail> {
  const agents: AgentStatus[] = [];
  const queued = await store.inboxSizes(stored.name);
  for (const a of stored.agents)
    agents.push(
      await agentStatus(store, stored.name, a, a.name, undefined, await store.getSession(stored.name, a.name), queued.get(a.name) ?? 0),
    );
  const objects = stored.objects.map((o) => ({ name: o.name, handler: o.handler, state: 'stopped' }));
  return {
    name: stored.name,
    status: stored.status,
    started_at: stored.startedAt,
    agent_count: agents.length,
    object_count: objects.length,
    agents,
    objects,
    topology: stored.topology,
    llm_usage: store.llmUsage.swarmUsage(stored.name),
  };
}

/** Counts of `states` by value, in a null-prototype map (states are engine values, but keys stay inert). */
export function countByState(states: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const state of states) out[state] = (out[state] ?? 0) + 1;
  return out;
}

interface StateCounts {
  readonly epoch: number;
  readonly agents: readonly unknown[];
  readonly agentCount: number;
  readonly sessions: number;
  readonly counts: Readonly<Record<string, number>>;
}
/** Per runtime: its agents counted by state, valid while no session changed (state epoch) and the agent sets did not. */
const stateCounts = new WeakMap<SwarmRuntime, StateCounts>();

/** The runtime's agents by state (an effective agent without a session is `stopped`), recounted only after a change. */
function agentsByState(rt: SwarmRuntime): Readonly<Record<string, number>> {
  const epoch = stateEpoch();
  const agents = rt.effective.agents;
  const memo = stateCounts.get(rt);
  if (
    memo !== undefined &&
    memo.epoch === epoch &&
    memo.agents === agents &&
    memo.agentCount === agents.length &&
    memo.sessions === rt.sessionCount
  )
    return memo.counts;
  const counts = Object.freeze(countByState(agents.map((a) => rt.session(a.name)?.state ?? 'stopped')));
  stateCounts.set(rt, { epoch, agents, agentCount: agents.length, sessions: rt.sessionCount, counts });
  return counts;
}

/** A running swarm's list entry, from its runtime alone (no store read, no config parse). */
export function runtimeSummary(rt: SwarmRuntime, head: SwarmHead): SwarmSummary {
  return {
    name: head.name,
    status: rt.status,
    started_at: rt.startedAt ?? head.startedAt,
    agent_count: rt.effective.agents.length,
    object_count: rt.effective.objects?.length ?? 0,
    agents_by_state: agentsByState(rt),
  };
}

/** Agents a stored entry declares: its `count` (a counted entry, docs/configuration.md), else one. */
function entryWidth(entry: unknown): number {
  const count = typeof entry === 'object' && entry !== null ? (entry as { count?: unknown }).count : undefined;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 1;
}

/** A swarm without a runtime: counts from its stored config, states from its stored sessions. */
export async function storedSummary(store: Store, head: SwarmHead): Promise<SwarmSummary> {
  const row = await store.getSwarm(head.name);
  const cfg = (row?.config ?? {}) as { agents?: unknown[]; objects?: unknown[] };
  return {
    name: head.name,
    status: head.status,
    started_at: head.startedAt,
    agent_count: (cfg.agents ?? []).reduce<number>((n, a) => n + entryWidth(a), 0),
    object_count: cfg.objects?.length ?? 0,
    agents_by_state: countByState((await store.listSessions(head.name)).map((r) => r.state)),
  };
}

export function redactedSpec(agent: unknown): unknown {
  return redactSecrets(agent);
}
