/** The in-memory side of one running swarm: effective state, topology, sessions, objects; the routing host. */
import { stateToConfig, type AgentConfig, type SwarmConfig, type SwarmState } from '@genswarms/ir-gate';
import {
  ProtectedPathIndex,
  uidHasProcesses,
  type AgentIdentity,
  type ProtectedEntry,
  type RunnerContext,
  type RunnerRegistry,
} from '@genswarms/runners';
import { EngineError } from '../errors/engine-error';
import type { AgentSession } from '../agents/agent-session';
import type { SessionHost } from '../agents/session-host';
import type { EventBus } from '../events/event-bus';
import type { PushHub } from '../events/pushes';
import type { ObjectInstance } from '../objects/object-instance';
import type { EnqueueOutcome, RoutingHost } from '../routing/router';
import { Topology, type NodeKind } from '../routing/topology';
import { INBOX_LIMIT, type EnqueueResult, type EventAlong, type Store, type SwarmStatus } from '../store/store';
import type { Clock } from '../util/clock';
import type { CorePorts } from '../util/core-ports';
import type { LlmMeter } from '../llm/llm-meter';
import type { MeterHost } from '../llm/llm-scopes';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

export interface RuntimeDeps extends CorePorts {
  readonly runners: RunnerRegistry;
  readonly runnerContext: RunnerContext;
  readonly receiptPollMs?: number;
  readonly outboxPollMs: number;
  readonly awaitingMs: number;
  /** Workspaces and state dirs of every agent of the OTHER running swarms (the mount-safety protected set). */
  /** The path indexes of the other running swarms (their agents' directories). */
  readonly pathIndexesOutside?: (swarm: string) => readonly ProtectedPathIndex[];
  /** Meters the LLM calls of isolated agents (budgets, usage, audit); absent = plain socat forwarders. */
  readonly llmMeter?: LlmMeter;
}

export function newItemId(): string {
  return `item_${randomUUID().replace(/-/g, '')}`;
}

/**
 * One running swarm. It owns its sessions, objects, effective state and status: they change only through the
 * intent-named methods below (`addSession`, `removeSession`, `addObject`, `removeObject`, `replaceState`,
 * `markStarting`/`markRunning`/`markStopping`/`markStopped`, `noteScaleBase`), never by a write from outside.
 */
export class SwarmRuntime implements RoutingHost, SessionHost, MeterHost {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly objectsByName = new Map<string, ObjectInstance>();
  private topologyNow: Topology;
  private effectiveNow: SwarmConfig;
  private stateNow: SwarmState;
  private statusNow: SwarmStatus = 'starting';
  private startedAtNow: string;
  private readonly ctx: RunnerContext;
  // The ports this runtime hands its sessions and routing, taken once from its deps (no forwarding getters).
  readonly store: Store;
  readonly events: EventBus;
  readonly pushes: PushHub;
  readonly clock: Clock;
  readonly runners: RunnerRegistry;
  /** Receipt watcher poll (ms); undefined = the watcher's default. */
  readonly receiptPollMs: number | undefined;
  readonly outboxPollMs: number;
  readonly awaitingMs: number;
  /** This runtime is its sessions' routing host. */
  readonly routing: RoutingHost = this;
  /** Each agent's context with its own ids (a root server with an id range); empty otherwise. */
  private readonly agentContexts = new Map<string, RunnerContext>();
  /** Validate: ids are previewed, never written. */
  private identitiesPreviewOnly = false;
  /** Bases a `scale_agent_group` named (from the overlay, and each scale since): their instances share an LLM budget. */
  private readonly scaleBaseNames = new Set<string>();

  constructor(
    private readonly deps: RuntimeDeps,
    readonly swarm: string,
    state: SwarmState,
    readonly seedConfig: unknown,
    readonly baseDir: string | null,
    /** When the swarm started: now for a new start, the stored time for a recovered one. */
    startedAt?: string,
  ) {
    ({ store: this.store, events: this.events, pushes: this.pushes, clock: this.clock, runners: this.runners } = deps);
    ({ receiptPollMs: this.receiptPollMs, outboxPollMs: this.outboxPollMs, awaitingMs: this.awaitingMs } = deps);
    this.stateNow = state;
    this.effectiveNow = stateToConfig(state);
    this.topologyNow = new Topology(state.topology);
    this.startedAtNow = startedAt ?? deps.clock.now().toISOString();
    const base = deps.runnerContext;
    // Runners refuse any host path overlapping another agent's directories (docs/security.md#10-agent-runners-and-sandboxes).
    this.ctx = {
      ...base,
      protectedChecks: (self) => [
        ...(base.protectedChecks?.(self) ?? []),
        this.pathIndex().checkFor(self.swarm === this.swarm ? self.agent : undefined),
        ...(deps.pathIndexesOutside?.(this.swarm) ?? []).map((index) => index.checkFor(undefined)),
      ],
      ...(deps.llmMeter === undefined ? {} : { egressMeter: (_swarm: string, agent: string) => deps.llmMeter?.forAgent(this, agent) }),
    };
  }

  /** Notes the scale bases of stored overlay events (a start or a recovery replays them). */
  noteScaleBases(events: readonly { readonly op: string; readonly payload: Readonly<Record<string, unknown>> }[]): void {
    for (const e of events) {
      const base = e.payload['base_name'];
      if (e.op === 'scale_agent_group' && typeof base === 'string') this.scaleBaseNames.add(base);
    }
  }

  /** A `scale_agent_group` of `base` was applied: its instances share the base's LLM budget from their first call. */
  noteScaleBase(base: string): void {
    this.scaleBaseNames.add(base);
  }

  /** Bases a `scale_agent_group` named (from the overlay, and each scale since). */
  get scaleBases(): ReadonlySet<string> {
    return this.scaleBaseNames;
  }

  /** The effective state (seed ⊕ overlay). */
  get state(): SwarmState {
    return this.stateNow;
  }
  /** The effective config, derived from `state`. */
  get effective(): SwarmConfig {
    return this.effectiveNow;
  }
  get topology(): Topology {
    return this.topologyNow;
  }
  get status(): SwarmStatus {
    return this.statusNow;
  }
  get startedAt(): string {
    return this.startedAtNow;
  }

  markRunning(): void {
    this.statusNow = 'running';
  }
  markStopping(): void {
    this.statusNow = 'stopping';
  }
  markStopped(): void {
    this.statusNow = 'stopped';
  }

  // ---- sessions and objects: this runtime is their one owner ----
  session(agent: string): AgentSession | undefined {
    return this.sessions.get(agent);
  }
  /** The running sessions, in the order they were added. */
  sessionList(): AgentSession[] {
    return [...this.sessions.values()];
  }
  get sessionCount(): number {
    return this.sessions.size;
  }
  /** Adds (or replaces, on a restart of the same name) the session of `session.name`. */
  addSession(session: AgentSession): void {
    const before = this.sessions.get(session.name);
    this.sessions.set(session.name, session);
    if (before !== undefined) this.pathIndexNow?.index.remove({ path: before.spec.workspace, owner: before.name });
    this.pathIndexNow?.index.add({ path: session.spec.workspace, owner: session.name });
  }
  removeSession(agent: string): void {
    const before = this.sessions.get(agent);
    this.sessions.delete(agent);
    if (before !== undefined) this.pathIndexNow?.index.remove({ path: before.spec.workspace, owner: agent });
  }
  objectList(): ObjectInstance[] {
    return [...this.objectsByName.values()];
  }
  get objectCount(): number {
    return this.objectsByName.size;
  }
  addObject(object: ObjectInstance): void {
    this.objectsByName.set(object.name, object);
  }
  removeObject(name: string): void {
    this.objectsByName.delete(name);
  }

  /** The effective `options` (seed ⊕ overlay): where the swarm's LLM budget and rate limit live. */
  swarmOptions(): unknown {
    return this.effective.options;
  }

  private readonly defaultDirs = new Map<string, { readonly workspace: string; readonly state: string }>();
  /** Every agent's directories indexed: rebuilt when the agents change (`replaceState`), kept in step by `add/removeSession`. */
  private pathIndexNow: { readonly effective: SwarmConfig; readonly index: ProtectedPathIndex } | undefined;

  /** Every agent's workspace and state dir, indexed (docs/security.md#10-agent-runners-and-sandboxes). */
  pathIndex(): ProtectedPathIndex {
    if (this.pathIndexNow?.effective === this.effective) return this.pathIndexNow.index;
    const entries: ProtectedEntry[] = [];
    for (const a of this.effective.agents) {
      const dirs = this.defaultDirsOf(a.name);
      entries.push(
        { path: typeof a.workspace === 'string' ? a.workspace : dirs.workspace, owner: a.name },
        { path: dirs.state, owner: a.name },
      );
    }
    for (const [name, session] of this.sessions) entries.push({ path: session.spec.workspace, owner: name });
    const index = new ProtectedPathIndex(entries, this.deps.runnerContext.home);
    this.pathIndexNow = { effective: this.effective, index };
    return index;
  }

  /** `<home>/workspaces/<swarm>/<agent>` and `<home>/state/<swarm>/<agent>` (memoised: both are fixed per name). */
  private defaultDirsOf(agent: string): { readonly workspace: string; readonly state: string } {
    let dirs = this.defaultDirs.get(agent);
    if (dirs === undefined) {
      const home = this.deps.runnerContext.home;
      dirs = { workspace: path.join(home, 'workspaces', this.swarm, agent), state: path.join(home, 'state', this.swarm, agent) };
      this.defaultDirs.set(agent, dirs);
    }
    return dirs;
  }

  /** The engine's runner context, plus the other agents' directories as protected paths. */
  get runnerContext(): RunnerContext {
    return this.ctx;
  }

  /**
   * The context `agent` is planned, started, re-attached and stopped with: with an id range, the base plus the
   * agent's own ids (`ensureIdentity` first); without one the base. A range with no ids for the agent gives the
   * base, which every runner refuses (`agentIdentityOf`): nothing runs under a shared id by mistake.
   */
  contextFor(agent: string): RunnerContext {
    return this.agentContexts.get(agent) ?? this.ctx;
  }

  /** Validate's runtime: `ensureIdentity` previews the ids start would give, writing nothing. */
  previewIdentities(): void {
    this.identitiesPreviewOnly = true;
  }

  /**
   * Finds or allocates `agent`'s own uid:gid (docs/security.md "One identity per agent"): the pair it held
   * before (restart, recovery, re-adoption), else a new one from the range → `agent_ids_exhausted` when none is free.
   */
  async ensureIdentity(agent: string): Promise<void> {
    const range = this.ctx.agentIdRange;
    if (range === undefined || this.agentContexts.has(agent)) return;
    let ids: AgentIdentity;
    if (this.identitiesPreviewOnly) ids = this.store.agentIds.preview(this.swarm, agent, range);
    else {
      const got = this.store.agentIds.allocate(this.swarm, agent, range, this.clock.now().toISOString(), (uid) => !uidHasProcesses(uid));
      if (got.kind === 'exhausted') {
        throw new EngineError(
          'agent_ids_exhausted',
          `Every agent id of ${range.first}-${range.last} is in use; purge a swarm or widen GENSWARMS_AGENT_UID_RANGE.`,
          {
            agent,
          },
        );
      }
      ids = got.ids;
    }
    this.agentContexts.set(agent, { ...this.ctx, agent: ids });
  }

  /** Replaces the effective state (after an accepted op) and rebuilds the topology. */
  replaceState(state: SwarmState): void {
    this.stateNow = state;
    this.effectiveNow = stateToConfig(state);
    this.topologyNow = new Topology(state.topology);
  }

  agentConfig(agent: string): AgentConfig | undefined {
    return this.effective.agents.find((a) => a.name === agent);
  }

  kindOf(name: string): NodeKind | undefined {
    if (this.sessions.has(name)) return 'agent';
    if (this.objectsByName.has(name)) return 'object';
    return undefined;
  }

  object(name: string): ObjectInstance | undefined {
    return this.objectsByName.get(name);
  }

  markAwaiting(agent: string): void {
    this.sessions.get(agent)?.markAwaiting();
  }

  async enqueueMessage(agent: string, from: string, content: string, along?: EventAlong<EnqueueResult>): Promise<EnqueueOutcome> {
    const r = await this.store.enqueue(
      {
        swarm: this.swarm,
        agent,
        id: newItemId(),
        kind: 'message',
        from,
        content,
        now: this.clock.now().toISOString(),
        limit: INBOX_LIMIT,
      },
      along,
    );
    if (along !== undefined) this.events.announce(along);
    if (r.kind === 'full') return { kind: 'full' };
    this.sessions.get(agent)?.messageQueued();
    return { kind: 'ok', itemId: r.item.id };
  }
}
