/**
 * The engine: swarms that run, route, persist and recover. Per-instance state only; every dependency
 * is injected. Errors are `EngineError`s whose `code`/`status` map 1:1 onto docs/rest-api.md bodies.
 */
import type { ConfigSummary } from '@genswarms/ir-gate';
import { EventBus, type EventListener } from '../events/event-bus';
import type { EventFilterSet, ParsedEventQuery } from '../events/event-query';
import type {
  AddAgentCommand,
  AddObjectCommand,
  MessageCommand,
  ObjectConfigPatchCommand,
  TopologyPatch,
} from '../commands/command-schemas';
import type { SnapshotFormat } from '../commands/parse-command';
import type {
  AgentRestarted,
  AgentGitDiff,
  AgentResumed,
  EventPage,
  GitWorkFetched,
  MessageRouted,
  NodeAdded,
  NodeRemoved,
  ObjectConfigUpdated,
  ObjectDetail,
  OverlayCleared,
  OverlayView,
  ScaleResult,
  SwarmService,
  TaskSent,
  TopologyPatched,
} from '../service/swarm-service';
import type { LogLine } from '../agents/agent-session';
import type { TopologyEntry } from '../events/pushes';
import type { TurnDetail, TurnView } from './agent-ops';
import type { Snapshot } from './object-ops';
import { PushHub, type PushListener } from '../events/pushes';
import { createHandlerRegistry } from '../objects/builtins';
import type { HandlerRegistry } from '../objects/handler';
import { SqliteStore } from '../store/sqlite-store';
import { guardStorage } from '../store/storage-full';
import { storageWatch } from '../events/storage-events';
import { isAnyHandlerSecretKey } from '../objects/secret-config';
import type { MessageRow, Store, StoredEvent } from '../store/store';
import { SYSTEM_CLOCK, type Clock } from '../util/clock';
import { LlmMeter, type LlmCallListener } from '../llm/llm-meter';
import * as llmOps from './llm-ops';
import { parseBudgetPatchCommand, type BudgetUpdated, type LlmRequestList } from '../commands/llm-schemas';
import type { StartInput } from './config-input';
import { AWAITING_MS, OUTBOX_POLL_MS, type EngineOptions } from './engine-deps';
import { agentGitChanges, agentGitDiff, fetchAgentsGitWork } from '../git/git-ops';
import { watchGitChanges } from '../git/git-changes-watch';
import type { AgentChanges } from '@genswarms/runners';
import { finishInterruptedStop, REATTACHABLE, recoverSwarm } from './recovery';
import type { AgentStatus, ObjectStatus, SwarmDetail, SwarmSummary } from './status';
import type { SwarmRuntime } from './swarm-runtime';
import type { EngineContext } from './engine-context';
import { stopRuntime } from './lifecycle';
import { createLimiter, LAUNCH_CONCURRENCY } from './bounded';
import { RuntimeTable } from './runtime-table';
import { HostCapacityGate, SYSTEM_HOST_LIMITS } from './host-capacity-gate';
import * as agentOps from './agent-ops';
import * as nodeOps from './node-ops';
import * as objectOps from './object-ops';
import * as swarmOps from './swarm-ops';
import * as readOps from './read-ops';
import { agentHistory, type HistoryEntry } from './agent-history';
import { setSwarmPaused, type PauseResult } from './swarm-pause';
import { skillOrThrow, skillsCatalogue, type SkillEntry } from '../skills/skills-catalogue';
import * as path from 'node:path';

export class Engine implements SwarmService {
  readonly store: Store;
  readonly events: EventBus;
  readonly pushes = new PushHub();
  readonly clock: Clock;
  readonly handlers: HandlerRegistry;
  /** The running swarms (the table's one owner is this engine; operations reach it through `ctx`). */
  readonly swarms = new RuntimeTable();
  /** The narrow ports every operation module works with (engine-context.ts). */
  readonly ctx: EngineContext;
  /** Launch slots shared by every swarm starting at once (bounded.ts). */
  readonly launchSlots = createLimiter(LAUNCH_CONCURRENCY);
  /** Budgets, rate limits, usage and audit of isolated agents' LLM calls (llm/llm-meter.ts). */
  readonly llm: LlmMeter;

  private constructor(readonly opts: EngineOptions) {
    this.handlers = opts.handlers ?? createHandlerRegistry();
    const handlers = this.handlers;
    this.clock = opts.clock ?? SYSTEM_CLOCK;
    const store = opts.store ?? SqliteStore.open(opts.home, { isConfigSecretKey: (key) => isAnyHandlerSecretKey(handlers, key) });
    // A write refused for lack of space is `storage_full` (507) with one event per outage.
    this.store = guardStorage(
      store,
      storageWatch(() => this.events, this.clock),
    );
    this.events = new EventBus(this.store, this.clock, opts.log);
    this.llm = new LlmMeter(this.store.llmUsage, this.clock, this.events);
    this.ctx = {
      store: this.store,
      events: this.events,
      pushes: this.pushes,
      clock: this.clock,
      handlers: this.handlers,
      runtimes: this.swarms,
      limits: { maxAgents: opts.maxAgentsPerSwarm ?? 100, host: new HostCapacityGate(opts.readHostLimits ?? SYSTEM_HOST_LIMITS) },
      paths: { home: opts.home, configDir: opts.configDir, skillsRoot: opts.skillsRoot ?? path.join(opts.home, 'skills') },
      launchSlots: this.launchSlots,
      runtimeDeps: () => this.runtimeDeps(),
    };
    this.events.subscribe((e) => {
      if (e.swarm !== null) this.pushes.push(e.swarm, { type: 'event', payload: e });
    });
    watchGitChanges({
      home: opts.home,
      events: this.events,
      report: (error, swarm, agent) => void this.events.reportFailure({ where: 'git_changes', error, swarm, agent }),
    });
  }

  /** Opens the store and recovers every swarm that was running (docs/receipts.md recovery). */
  static async open(opts: EngineOptions): Promise<Engine> {
    const engine = new Engine(opts);
    for (const row of await engine.store.listSwarms()) {
      if (row.status === 'running' || row.status === 'starting') await recoverSwarm(engine.ctx, row);
      else if (row.status === 'stopping') await finishInterruptedStop(engine.ctx, row);
    }
    return engine;
  }

  runtimeDeps(): ConstructorParameters<typeof SwarmRuntime>[0] {
    return {
      store: this.store,
      events: this.events,
      pushes: this.pushes,
      clock: this.clock,
      runners: this.opts.runners,
      runnerContext: this.opts.runnerContext,
      llmMeter: this.llm,
      pathIndexesOutside: (swarm) => [...this.swarms.values()].filter((rt) => rt.swarm !== swarm).map((rt) => rt.pathIndex()),
      outboxPollMs: this.opts.outboxPollMs ?? OUTBOX_POLL_MS,
      awaitingMs: this.opts.awaitingMs ?? AWAITING_MS,
      ...(this.opts.receiptPollMs === undefined ? {} : { receiptPollMs: this.opts.receiptPollMs }),
    };
  }

  onEvent(listener: EventListener): () => void {
    return this.events.subscribe(listener);
  }

  onPush(listener: PushListener): () => void {
    return this.pushes.on(listener);
  }

  /** The gate (docs/ir.md#the-gate): schema → IR → validate → stored overlay → runner plan for every agent → spawn. */
  startSwarm(input: StartInput): Promise<{ status: 'created'; swarm_name: string }> {
    return swarmOps.startSwarm(this.ctx, input);
  }

  /**
   * Every plan-time check `startSwarm` runs (schema, IR, handlers, stored overlay, network matrix, the
   * runner plan of every agent), without starting or creating anything: `valid` means start will not
   * refuse the config for a config reason. Throws the EngineError start would.
   */
  validateConfig(value: unknown, baseDir: string): Promise<ConfigSummary> {
    return swarmOps.validateConfig(this.ctx, value, baseDir);
  }

  /** Running swarms are summarised from their runtime; only a swarm without one has its stored config read. */
  listSwarms(): Promise<{ swarms: SwarmSummary[] }> {
    return readOps.listSwarms(this.ctx);
  }

  getSwarm(swarm: string): Promise<SwarmDetail> {
    return readOps.getSwarm(this.ctx, swarm);
  }

  /** Stops a swarm (inbox dropped with one `inbox_dropped`); `purge` also deletes its data and default dirs. */
  stopSwarm(swarm: string, opts: { purge?: boolean } = {}): Promise<{ status: 'stopped' | 'purged'; swarm_name: string }> {
    return swarmOps.stopSwarm(this.ctx, swarm, opts);
  }

  /** Stop then start from the stored seed config (+ overlay); `deleteData` first removes events, messages, turns and default dirs. */
  restartSwarm(
    swarm: string,
    opts: { deleteData?: boolean } = {},
  ): Promise<{ status: 'restarted'; swarm_name: string; delete_data: boolean }> {
    return swarmOps.restartSwarm(this.ctx, swarm, opts);
  }

  /** Pauses every docker-backed agent (docker, tmux+docker) of a running swarm; others listed in `skipped`. */
  pauseSwarm(swarm: string): Promise<PauseResult> {
    return setSwarmPaused(this.ctx, swarm, true);
  }

  /** Unpauses the swarm's paused containers; non-docker agents are listed in `skipped`. */
  resumeSwarm(swarm: string): Promise<PauseResult> {
    return setSwarmPaused(this.ctx, swarm, false);
  }

  /** The skills root this engine serves (`skillsRoot`, default `<home>/skills`). */
  get skillsRoot(): string {
    return this.ctx.paths.skillsRoot;
  }

  /** `GET /api/skills`: `.md` files under the skills root, relative paths only. */
  listSkills(): Promise<{ skills: SkillEntry[]; count: number }> {
    return skillsCatalogue(this.skillsRoot);
  }

  /** `GET /api/skills/:name` (`.md` optional): 400 `invalid_name`, 404 `not_found`. */
  readSkill(name: string): Promise<{ name: string; content: string; size: number }> {
    return skillOrThrow(this.skillsRoot, name);
  }

  /** One page of stored events; the query (scope included) was parsed at the edge. */
  queryEvents(query: ParsedEventQuery): Promise<EventPage> {
    return readOps.queryEvents(this.ctx, query);
  }

  /** The newest `limit` events of a swarm matching any filter set, oldest first, each once. */
  recentEvents(swarm: string, filters: readonly EventFilterSet[], limit: number): Promise<StoredEvent[]> {
    return readOps.recentEvents(this.ctx, swarm, filters, limit);
  }

  listMessages(swarm: string, limit = 100): Promise<{ messages: MessageRow[] }> {
    return readOps.listMessages(this.ctx, swarm, limit);
  }

  /** Whether the swarm is running or known to the store. */
  hasSwarm(swarm: string): Promise<boolean> {
    return readOps.hasSwarm(this.ctx, swarm);
  }

  /** Drops every runtime without stopping agents or touching the store (as a crash would); closes the store. */
  async close(): Promise<void> {
    for (const rt of this.swarms.values()) for (const s of rt.sessionList()) s.abandon();
    this.swarms.clear();
    await this.opts.runners.closeAll('detach'); // panes and containers stay for the next start to re-attach
    await this.store.close();
  }

  /**
   * Server stop that keeps swarms running for the next start: processes that would be re-attached
   * (tmux panes, containers) are left alone; the others (local, bwrap, mock) are stopped, because the
   * next start restarts them anyway and a leftover would race the new one over the same workspace.
   * In-flight turns stay open and are redelivered by recovery. Then the store is closed.
   */
  async detach(): Promise<void> {
    for (const rt of this.swarms.values()) {
      for (const s of rt.sessionList()) {
        if (REATTACHABLE.has(s.spec.backend)) s.abandon();
        else await s.release();
      }
    }
    this.swarms.clear();
    await this.opts.runners.closeAll('detach'); // panes and containers stay for the next start to re-attach
    await this.store.close();
  }

  /** Graceful shutdown: stops every swarm, then closes the store. */
  async shutdown(): Promise<void> {
    for (const rt of [...this.swarms.values()]) await stopRuntime(this.ctx, rt);
    await this.opts.runners.closeAll('shutdown');
    await this.store.close();
  }

  // ---- agents (docs/rest-api.md) ----
  sendTask(swarm: string, agent: string, task: string): Promise<TaskSent> {
    return agentOps.sendTask(this.ctx, swarm, agent, task);
  }
  sendMessage(swarm: string, body: MessageCommand): Promise<MessageRouted> {
    return agentOps.sendMessage(this.ctx, swarm, body);
  }
  getAgent(swarm: string, agent: string): Promise<AgentStatus> {
    return agentOps.getAgent(this.ctx, swarm, agent);
  }
  listAgents(swarm: string): Promise<{ agents: AgentStatus[] }> {
    return agentOps.listAgents(this.ctx, swarm);
  }
  resumeAgent(swarm: string, agent: string): Promise<AgentResumed> {
    return agentOps.resumeAgent(this.ctx, swarm, agent);
  }
  restartAgent(swarm: string, agent: string): Promise<AgentRestarted> {
    return agentOps.restartAgent(this.ctx, swarm, agent);
  }
  listTurns(swarm: string, agent: string, limit?: number): Promise<{ turns: TurnView[] }> {
    return agentOps.listTurns(this.ctx, swarm, agent, limit);
  }
  getTurn(swarm: string, agent: string, turn: string): Promise<TurnDetail> {
    return agentOps.getTurn(this.ctx, swarm, agent, turn);
  }
  agentLogs(swarm: string, agent: string): Promise<{ logs: LogLine[] }> {
    return agentOps.agentLogs(this.ctx, swarm, agent);
  }
  agentScreen(swarm: string, agent: string): Promise<{ screen: string[] | null }> {
    return agentOps.agentScreen(this.ctx, swarm, agent);
  }
  agentHistory(swarm: string, agent: string, limit?: number): Promise<{ history: HistoryEntry[] }> {
    return agentHistory(this.ctx, swarm, agent, limit);
  }
  agentGitChanges(swarm: string, agent: string): Promise<AgentChanges> {
    return agentGitChanges(this.ctx.paths, swarm, agent);
  }
  agentGitDiff(swarm: string, agent: string, opts: { stat?: boolean }): Promise<AgentGitDiff> {
    return agentGitDiff(this.ctx.paths, swarm, agent, opts);
  }
  fetchGitWork(swarm: string, opts: { agents?: readonly string[]; includeUncommitted?: boolean }): Promise<GitWorkFetched> {
    return fetchAgentsGitWork(this.ctx.paths, swarm, opts);
  }
  // ---- LLM budgets and the audit trail of the metering egress ----
  async patchAgentBudget(swarm: string, agent: string, body: unknown): Promise<BudgetUpdated> {
    return llmOps.patchAgentBudget(this.ctx, swarm, agent, parseBudgetPatchCommand(body));
  }
  async patchSwarmBudget(swarm: string, body: unknown): Promise<BudgetUpdated> {
    return llmOps.patchSwarmBudget(this.ctx, swarm, parseBudgetPatchCommand(body));
  }
  listLlmRequests(swarm: string, agent: string, page: { limit: number; before?: number }): Promise<LlmRequestList> {
    return llmOps.listLlmRequests(this.ctx, swarm, agent, page);
  }
  /** Every LLM call metered (the metrics count them). */
  onLlmCall(listener: LlmCallListener): () => void {
    return this.llm.onCall(listener);
  }
  addAgent(swarm: string, body: AddAgentCommand): Promise<NodeAdded> {
    return nodeOps.addAgent(this.ctx, swarm, body);
  }
  removeAgent(swarm: string, agent: string): Promise<NodeRemoved> {
    return nodeOps.removeAgent(this.ctx, swarm, agent);
  }
  scaleAgents(swarm: string, base: string, count: number): Promise<ScaleResult> {
    return nodeOps.scaleAgents(this.ctx, swarm, base, count);
  }
  getTopology(swarm: string): Promise<{ topology: readonly TopologyEntry[] }> {
    return nodeOps.getTopology(this.ctx, swarm);
  }
  patchTopology(swarm: string, body: TopologyPatch): Promise<TopologyPatched> {
    return nodeOps.patchTopology(this.ctx, swarm, body);
  }
  // ---- objects, overlay, snapshot ----
  listObjects(swarm: string): Promise<{ objects: ObjectStatus[] }> {
    return objectOps.listObjects(this.ctx, swarm);
  }
  getObject(swarm: string, name: string): Promise<ObjectDetail> {
    return objectOps.getObject(this.ctx, swarm, name);
  }
  addObject(swarm: string, body: AddObjectCommand): Promise<NodeAdded> {
    return objectOps.addObject(this.ctx, swarm, body);
  }
  removeObject(swarm: string, name: string): Promise<NodeRemoved> {
    return objectOps.removeObject(this.ctx, swarm, name);
  }
  patchObjectConfig(swarm: string, name: string, body: ObjectConfigPatchCommand): Promise<ObjectConfigUpdated> {
    return objectOps.patchObjectConfig(this.ctx, swarm, name, body);
  }
  getOverlay(swarm: string): Promise<OverlayView> {
    return objectOps.getOverlay(this.ctx, swarm);
  }
  clearOverlay(swarm: string): Promise<OverlayCleared> {
    return objectOps.clearOverlay(this.ctx, swarm);
  }
  snapshot(swarm: string, format?: SnapshotFormat): Promise<Snapshot> {
    return objectOps.snapshot(this.ctx, swarm, format);
  }
}
