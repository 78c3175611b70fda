/**
 * The one seam between the engine and an edge (the HTTP routes, the socket handlers, the CLI): one
 * method per operation. Inputs are already parsed (`commands/`: names checked against the Name
 * grammar, bodies by their command schema); results are the response bodies. Every method throws an
 * `EngineError` whose `code`/`status` the edge turns 1:1 into an error body. `Engine` implements it;
 * edge tests pass a `Partial<SwarmService>` fake.
 */
import type { ConfigSummary } from '@genswarms/ir-gate';
import type { AgentChanges } from '@genswarms/runners';
import type { AgentGitDiff, GitWorkFetched } from '../git/git-types';

export type { AgentGitDiff, GitWorkFetched } from '../git/git-types';
import type {
  AddAgentCommand,
  AddObjectCommand,
  MessageCommand,
  ObjectConfigPatchCommand,
  TopologyPatch,
} from '../commands/command-schemas';
import type { SnapshotFormat } from '../commands/parse-command';
import type { LogLine } from '../agents/agent-session';
import type { EventFilterSet, ParsedEventQuery } from '../events/event-query';
import type { PushListener, TopologyEntry } from '../events/pushes';
import type { SkillEntry } from '../skills/skills-catalogue';
import type { MessageRow, StoredEvent } from '../store/store';
import type { HistoryEntry } from '../swarms/agent-history';
import type { TurnDetail, TurnView } from '../swarms/agent-ops';
import type { StartInput } from '../swarms/config-input';
import type { Snapshot } from '../swarms/object-ops';
import type { PauseResult } from '../swarms/swarm-pause';
import type { AgentStatus, ObjectStatus, SwarmDetail, SwarmSummary } from '../swarms/status';
import type { BudgetUpdated, LlmRequestList } from '../commands/llm-schemas';
import type { LlmCallListener } from '../llm/llm-meter';

export interface SwarmCreated {
  readonly status: 'created';
  readonly swarm_name: string;
}
export interface SwarmStopped {
  readonly status: 'stopped' | 'purged';
  readonly swarm_name: string;
}
export interface SwarmRestarted {
  readonly status: 'restarted';
  readonly swarm_name: string;
  readonly delete_data: boolean;
}
export interface TaskSent {
  readonly status: 'sent';
  readonly agent: string;
  readonly id: string;
  readonly queued: number;
}
export interface MessageRouted {
  readonly status: 'routed';
  readonly from: string;
  readonly to: string;
  readonly swarm: string;
}
export interface NodeAdded {
  readonly status: 'added';
  readonly name: string;
}
export interface NodeRemoved {
  readonly status: 'removed';
  readonly name: string;
}
export interface AgentResumed {
  readonly status: 'resumed';
  readonly agent: string;
  /** `busy`: the agent goes on with the turn that was open when it was held (a dialog mid-turn). */
  readonly state: 'idle' | 'busy';
}
export interface AgentRestarted {
  readonly status: 'restarted';
  readonly agent: string;
}
export interface ScaleResult {
  readonly status: 'ok';
  readonly result: { readonly added: string[]; readonly removed: string[]; readonly failed: { name: string; reason: string }[] };
}
export interface TopologyPatched {
  readonly status: 'ok';
  readonly added: number;
  readonly removed: number;
}
export interface ObjectDetail {
  readonly object: { readonly name: string; readonly handler: string; readonly config: unknown };
  readonly state: string;
}
export interface ObjectConfigUpdated {
  readonly status: 'updated';
  readonly object: string;
  readonly keys: string[];
}
export interface OverlayView {
  readonly swarm: string;
  readonly events: unknown[];
}
export interface OverlayCleared {
  readonly status: 'cleared';
  readonly swarm: string;
}
export interface EventPage {
  readonly events: StoredEvent[];
  readonly count: number;
  readonly query: ParsedEventQuery;
}
export interface SkillDocument {
  readonly name: string;
  readonly content: string;
  readonly size: number;
}

export interface SwarmService {
  // ---- swarms ----
  listSwarms(): Promise<{ swarms: SwarmSummary[] }>;
  /** Whether the swarm is running or known to the store (socket `join`). */
  hasSwarm(swarm: string): Promise<boolean>;
  startSwarm(input: StartInput): Promise<SwarmCreated>;
  /** Every plan-time check of `startSwarm` on a parsed config, creating nothing; the summary when it would start. */
  validateConfig(value: unknown, baseDir: string): Promise<ConfigSummary>;
  getSwarm(swarm: string): Promise<SwarmDetail>;
  stopSwarm(swarm: string, opts: { purge?: boolean }): Promise<SwarmStopped>;
  restartSwarm(swarm: string, opts: { deleteData?: boolean }): Promise<SwarmRestarted>;
  pauseSwarm(swarm: string): Promise<PauseResult>;
  resumeSwarm(swarm: string): Promise<PauseResult>;

  // ---- messages ----
  sendMessage(swarm: string, msg: MessageCommand): Promise<MessageRouted>;
  listMessages(swarm: string, limit: number): Promise<{ messages: MessageRow[] }>;

  // ---- agents ----
  listAgents(swarm: string): Promise<{ agents: AgentStatus[] }>;
  addAgent(swarm: string, cmd: AddAgentCommand): Promise<NodeAdded>;
  getAgent(swarm: string, agent: string): Promise<AgentStatus>;
  removeAgent(swarm: string, agent: string): Promise<NodeRemoved>;
  sendTask(swarm: string, agent: string, task: string): Promise<TaskSent>;
  restartAgent(swarm: string, agent: string): Promise<AgentRestarted>;
  resumeAgent(swarm: string, agent: string): Promise<AgentResumed>;
  listTurns(swarm: string, agent: string, limit: number): Promise<{ turns: TurnView[] }>;
  /** One turn of the agent with its full reply; `turn_not_found` for an unknown id or a turn of another agent. */
  getTurn(swarm: string, agent: string, turn: string): Promise<TurnDetail>;
  agentHistory(swarm: string, agent: string, limit: number): Promise<{ history: HistoryEntry[] }>;

  // ---- git workspaces (read by the host's pure reader; nothing of the agent's clone runs) ----
  /** Files changed from the clone's start, committed and not, and the agent branch's commits; `no_git_workspace` otherwise. */
  agentGitChanges(swarm: string, agent: string): Promise<AgentChanges>;
  /** The unified diff (or `--stat`) of the same, cut at DIFF_MAX_BYTES with a note. */
  agentGitDiff(swarm: string, agent: string, opts: { stat?: boolean }): Promise<AgentGitDiff>;
  /** Each agent's work onto `genswarms/<swarm>/<agent>` of the operator's repository (all git agents when none named). */
  fetchGitWork(swarm: string, opts: { agents?: readonly string[]; includeUncommitted?: boolean }): Promise<GitWorkFetched>;
  /** The body is parsed here (BudgetPatchCommand); a scaled group changes together. */
  patchAgentBudget(swarm: string, agent: string, body: unknown): Promise<BudgetUpdated>;
  patchSwarmBudget(swarm: string, body: unknown): Promise<BudgetUpdated>;
  listLlmRequests(swarm: string, agent: string, page: { limit: number; before?: number }): Promise<LlmRequestList>;
  agentLogs(swarm: string, agent: string): Promise<{ logs: LogLine[] }>;
  /** A TUI agent's pane text now (scrollback + screen), `null` for headless or stopped agents. */
  agentScreen(swarm: string, agent: string): Promise<{ screen: string[] | null }>;
  scaleAgents(swarm: string, base: string, count: number): Promise<ScaleResult>;

  // ---- topology ----
  getTopology(swarm: string): Promise<{ topology: readonly TopologyEntry[] }>;
  patchTopology(swarm: string, patch: TopologyPatch): Promise<TopologyPatched>;

  // ---- objects, overlay, snapshot ----
  listObjects(swarm: string): Promise<{ objects: ObjectStatus[] }>;
  addObject(swarm: string, cmd: AddObjectCommand): Promise<NodeAdded>;
  getObject(swarm: string, object: string): Promise<ObjectDetail>;
  removeObject(swarm: string, object: string): Promise<NodeRemoved>;
  patchObjectConfig(swarm: string, object: string, cmd: ObjectConfigPatchCommand): Promise<ObjectConfigUpdated>;
  /** `{swarm, events}`; `[]` for an unknown swarm. */
  getOverlay(swarm: string): Promise<OverlayView>;
  clearOverlay(swarm: string): Promise<OverlayCleared>;
  /** The effective config (seed ⊕ overlay), redacted; `document` is the value, `body` its text. */
  snapshot(swarm: string, format?: SnapshotFormat): Promise<Snapshot>;

  // ---- skills ----
  listSkills(): Promise<{ skills: SkillEntry[]; count: number }>;
  /** `{name, content, size}`; `invalid_name` (400) or `not_found` (404). */
  readSkill(name: string): Promise<SkillDocument>;

  // ---- events and pushes ----
  /** One page of stored events (the query already parsed, scope included). */
  queryEvents(query: ParsedEventQuery): Promise<EventPage>;
  /** The newest `limit` events of a swarm matching any of `filters`, oldest first, each once. */
  recentEvents(swarm: string, filters: readonly EventFilterSet[], limit: number): Promise<StoredEvent[]>;
  /** Every push of every swarm; returns the unsubscribe function. */
  onPush(listener: PushListener): () => void;
  /** Every LLM call the egress metered (for the metrics). */
  onLlmCall(listener: LlmCallListener): () => void;
}
