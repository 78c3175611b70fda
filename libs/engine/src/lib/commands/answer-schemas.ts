/**
 * Every answer the edge sends, as one zod schema each: REST success bodies, the §4 error body, socket.io
 * acks and pushes. They are descriptions, not parsers: the engine builds its answers from its own types
 * and the compile-time checks at the end of this file fail when a type and its schema drift apart. The
 * OpenAPI document (apps/server) and the typed client (@genswarms/client) are generated from them.
 */
import { z } from 'zod';
import type { ConfigSummary } from '@genswarms/ir-gate';
import type { LogLine } from '../agents/agent-session';
import type { LogEntry } from '../events/event-bus';
import type { ParsedEventQuery } from '../events/event-query';
import type { EnginePush, TopologyEntry } from '../events/pushes';
import type { SkillEntry } from '../skills/skills-catalogue';
import type { MessageRow, StoredEvent } from '../store/store';
import type { HistoryEntry } from '../swarms/agent-history';
import type { TurnDetail, TurnView } from '../swarms/agent-ops';
import type { PauseResult } from '../swarms/swarm-pause';
import type { AgentStatus, ObjectStatus, SwarmDetail, SwarmSummary } from '../swarms/status';
import type * as Service from '../service/swarm-service';
import { LLM_ANSWER_SCHEMAS, LlmUsageSchema } from './llm-schemas';
import { GIT_ANSWER_SCHEMAS } from '../git/git-schemas';

const ts = (what: string) => z.string().describe(`${what} (ISO 8601)`);
const nullableTs = (what: string) => z.string().nullable().describe(`${what} (ISO 8601), null when unknown`);
const EventLevelSchema = z.enum(['debug', 'info', 'warning', 'error']).describe('Event level');
const EventCategorySchema = z.enum(['swarm', 'agent', 'object', 'routing', 'backend', 'system']).describe('Event category');
const SwarmStatusSchema = z.enum(['starting', 'running', 'stopping', 'stopped', 'error']).describe('Swarm status');
const MetadataSchema = z.record(z.string(), z.unknown()).describe('Event details (secrets redacted)');

/** §4 error body; `details` keys are listed in docs/rest-api.md (never paths, tokens or file contents). */
export const ErrorBodySchema = z
  .looseObject({
    error: z.string().describe('snake_case error code'),
    message: z.string().describe('One sentence'),
  })
  .meta({ id: 'ErrorBody' })
  .describe('Error answer: {error, message, ...details}');

export const AttentionInfoSchema = z
  .object({
    reason: z.string().describe('Why the agent needs attention'),
    turn: z.string().nullable().describe('Turn id, if any'),
    details: z
      .object({
        dialog: z.string().optional().describe('client_prompt_blocked: the name of the dialog the client shows'),
        stage: z.string().optional().describe('client_prompt_blocked: not_ready, paste_not_shown or enter_not_taken'),
        last_lines: z.array(z.string()).readonly().optional().describe("The client screen's last lines (at most 20, secrets replaced)"),
      })
      .optional()
      .describe('What a stuck TUI client showed (docs/clients.md "Pane mode"); absent after a server restart'),
  })
  .meta({ id: 'AttentionInfo' })
  .describe('Why an agent waits for an operator');

export const TopologyEntrySchema = z
  .object({ from: z.string().describe('Sender'), targets: z.array(z.string()).readonly().describe('Nodes it may send to') })
  .meta({ id: 'TopologyEntry' })
  .describe('The outgoing edges of one node');

export const AgentFailureSchema = z
  .object({
    code: z.string().describe('snake_case failure code (binary_missing, image_missing, start_failed, process_exited, …)'),
    message: z.string().describe('One sentence: what was missing, where it was looked for, what to do'),
    details: z.record(z.string(), z.unknown()).describe('Detail fields (names, the search PATH, the image); never secrets'),
  })
  .meta({ id: 'AgentFailure' })
  .describe('Why an agent is failed');

export const IsolationSchema = z
  .object({
    verified_at: z.string().describe('When the live process was read (ISO 8601)'),
    pid: z.number().describe('The process inspected: the client inside its boundary, or the host client'),
    namespaces: z
      .array(z.enum(['cgroup', 'ipc', 'mnt', 'net', 'pid', 'user', 'uts']))
      .readonly()
      .describe('Namespaces it does not share with the server (/proc/<pid>/ns)'),
    no_new_privs: z.boolean().describe('NoNewPrivs from /proc/<pid>/status'),
    seccomp: z.enum(['disabled', 'strict', 'filter']).describe('Seccomp mode from /proc/<pid>/status'),
    network: z
      .enum(['host', 'loopback', 'none', 'own'])
      .describe("host: the server's network namespace; loopback: its own with only lo; none: no interface; own: its own with others"),
    egress: z.string().optional().describe('network isolated: the host forwarder pin host:port'),
    limits: z
      .object({
        memory_bytes: z.number().optional().describe('memory limit in force (bytes)'),
        pids: z.number().optional().describe('process limit in force'),
        cpu: z.number().optional().describe('CPU quota in force (CPUs)'),
      })
      .describe('cgroup limits in force on the process (absent: unlimited)'),
    mounts: z
      .object({
        workspace: z.enum(['rw', 'ro', 'absent']).describe('The workspace as the client sees it'),
        state_dir: z.enum(['rw', 'ro', 'absent']).describe("The state dir (the client's HOME)"),
        host_root_visible: z.boolean().describe("The process's / is the server's root filesystem"),
      })
      .describe('The mounts that matter, from /proc/<pid>/mountinfo'),
    bypass_flags: z.array(z.string()).readonly().describe('Bypass flags on the live argv'),
    docker: z
      .object({
        network_mode: z.string().describe('HostConfig.NetworkMode'),
        cap_drop: z.array(z.string()).readonly().describe('HostConfig.CapDrop'),
        security_opt: z.array(z.string()).readonly().describe('HostConfig.SecurityOpt'),
        readonly_rootfs: z.boolean().describe('HostConfig.ReadonlyRootfs'),
      })
      .optional()
      .describe('docker: what the engine applied (inspect)'),
    differences: z
      .array(
        z
          .object({
            field: z.string().describe('What differs'),
            expected: z.string().describe('The plan'),
            actual: z.string().describe('The process'),
          })
          .describe('One contradiction between plan and process'),
      )
      .readonly()
      .describe('Empty when the process matches its plan; else the session is needs_attention (isolation_mismatch)'),
  })
  .meta({ id: 'Isolation' })
  .describe('The isolation an agent really has, read from its live process after start and re-attach');

export const AgentStatusSchema = z
  .object({
    name: z.string().describe('Agent name'),
    swarm: z.string().describe('Swarm name'),
    state: z.string().describe('starting, idle, busy, needs_attention, failed or stopped'),
    backend: z.string().describe('Runner backend'),
    client: z.string().describe('Client label'),
    network: z.string().describe('Network mode'),
    inbox_size: z.number().describe('Queued inbox items'),
    awaiting: z.boolean().describe('Waiting for an ask reply'),
    turn: z.string().nullable().describe('Current turn id'),
    turn_started_at: nullableTs('Start of the current turn'),
    needs_attention: AttentionInfoSchema.nullable(),
    failure: AgentFailureSchema.nullable(),
    started_at: nullableTs('Session start'),
    last_activity: nullableTs('Last activity'),
    isolation: IsolationSchema.nullable().describe('Read from the live process (not the config); null when not checked'),
    llm_usage: LlmUsageSchema,
    host_key_verified: z
      .boolean()
      .optional()
      .describe('ssh agents only: false when backend.opts.silently_accept_hosts is true (the host key is not verified)'),
    git_branch: z.string().optional().describe('Git workspaces only: the agent’s branch, genswarms/<swarm>/<agent>'),
  })
  .meta({ id: 'AgentStatus' })
  .describe('Status of one agent (redacted)');

export const ObjectStatusSchema = z
  .object({ name: z.string().describe('Object name'), handler: z.string().describe('Handler'), state: z.string().describe('State') })
  .meta({ id: 'ObjectStatus' })
  .describe('Status of one object');

export const SwarmSummarySchema = z
  .object({
    name: z.string().describe('Swarm name'),
    status: SwarmStatusSchema,
    started_at: nullableTs('Start'),
    agent_count: z.number().describe('Agents'),
    object_count: z.number().describe('Objects'),
    agents_by_state: z.record(z.string(), z.number()).readonly().describe('Agents per state; states with none left out'),
  })
  .meta({ id: 'SwarmSummary' })
  .describe('One swarm in the list');

export const SwarmDetailSchema = SwarmSummarySchema.omit({ agents_by_state: true })
  .extend({
    agents: z.array(AgentStatusSchema).readonly().describe('Agents'),
    objects: z.array(ObjectStatusSchema).readonly().describe('Objects'),
    topology: z.array(TopologyEntrySchema).readonly().describe('Topology'),
    llm_usage: LlmUsageSchema.describe('The LLM usage of every agent the swarm had, summed'),
  })
  .meta({ id: 'SwarmDetail' })
  .describe('One swarm with its agents, objects and topology (redacted)');

export const StoredEventSchema = z
  .object({
    id: z.number().describe('Event id (increasing)'),
    timestamp: ts('When'),
    level: EventLevelSchema,
    category: EventCategorySchema,
    swarm: z.string().nullable().describe('Swarm, if any'),
    agent: z.string().nullable().describe('Agent or object, if any'),
    event_type: z.string().describe('snake_case event type'),
    message: z.string().describe('One line'),
    metadata: MetadataSchema.readonly(),
  })
  .meta({ id: 'StoredEvent' })
  .describe('One stored event (redacted)');

export const LogEntrySchema = StoredEventSchema.omit({ category: true, swarm: true })
  .meta({ id: 'LogEntry' })
  .describe('One event in the log shape (socket.io log_entry)');

export const TurnViewSchema = z
  .object({
    id: z.string().describe('Turn id'),
    item_id: z.string().describe('Inbox item id'),
    from: z.string().describe('Sender of the item'),
    status: z.string().describe('running, completed, error, rejected, timed_out or cancelled'),
    reason: z.string().optional().describe('Why it was rejected'),
    error: z.string().optional().describe('Error text'),
    started_at: ts('Start'),
    completed_at: nullableTs('End'),
    reply_preview: z.string().nullable().describe('Start of the reply'),
  })
  .meta({ id: 'TurnView' })
  .describe('One turn of an agent');

export const TurnDetailSchema = TurnViewSchema.extend({
  reply: z
    .string()
    .nullable()
    .describe('The whole reply (agent-written text, at most 1 MiB; never interpreted); null when none or stored before it was kept'),
})
  .meta({ id: 'TurnDetail' })
  .describe('One turn of an agent with its full reply');

const ToSchema = z.union([z.string(), z.array(z.string()).readonly()]).describe('Recipient, or recipients of a broadcast');
const SendTypeSchema = z.enum(['direct', 'ask', 'broadcast']).describe('Message type');

export const HistoryEntrySchema = z
  .discriminatedUnion('direction', [
    z.object({
      direction: z.literal('received'),
      timestamp: ts('When'),
      id: z.string().describe('Inbox item id'),
      kind: z.enum(['task', 'message']).describe('Item kind'),
      from: z.string().describe('Sender'),
      content_preview: z.string().describe('Start of the content'),
      turn: z.string().nullable().describe('Turn that handled it'),
      status: z.string().describe('queued, or the turn status'),
    }),
    z.object({
      direction: z.literal('sent'),
      timestamp: ts('When'),
      id: z.number().describe('Message-log id'),
      type: SendTypeSchema,
      to: ToSchema,
      content_preview: z.string().describe('Start of the content'),
      turn: z.string().nullable().describe('Turn it was sent in'),
    }),
  ])
  .meta({ id: 'HistoryEntry' })
  .describe('One item an agent received or sent');

export const MessageRowSchema = z
  .object({
    id: z.number().describe('Message-log id'),
    timestamp: ts('When'),
    swarm: z.string().describe('Swarm'),
    from: z.string().describe('Sender'),
    to: ToSchema,
    type: SendTypeSchema,
    content_preview: z.string().describe('Start of the content'),
    turn: z.string().nullable().describe('Turn it was sent in'),
  })
  .meta({ id: 'MessageRow' })
  .describe('One routed message');

export const LogLineSchema = z
  .object({ timestamp: ts('When'), stream: z.enum(['stdout', 'stderr']).describe('Stream'), line: z.string().describe('Text') })
  .meta({ id: 'LogLine' })
  .describe('One output line of an agent');

export const SkillEntrySchema = z
  .object({ name: z.string().describe('Skill name'), relative_path: z.string().describe('Path in the catalogue'), category: z.string() })
  .meta({ id: 'SkillEntry' })
  .describe('One skill of the catalogue');

export const ConfigSummarySchema = z
  .object({
    name: z.string().describe('Swarm name'),
    agent_count: z.number(),
    object_count: z.number(),
    edge_count: z.number(),
    agents: z.array(z.string()),
    objects: z.array(z.string()),
  })
  .meta({ id: 'ConfigSummary' })
  .describe('What a valid config would start');

const status = <T extends string>(value: T) => z.literal(value).describe('Outcome');

/** Every REST success body by name (docs/rest-api.md). */
export const ANSWER_SCHEMAS = {
  ApiDescriptor: z
    .object({
      name: z.literal('genswarms'),
      version: z.string().describe('Server version'),
      endpoints: z.array(z.string()).describe('"METHOD /path" of every route'),
      websocket: z.object({ path: z.string(), namespace: z.string() }).describe('socket.io path and namespace'),
    })
    .describe('The API descriptor'),
  SwarmList: z.object({ swarms: z.array(SwarmSummarySchema) }).describe('Every swarm'),
  SwarmCreated: z.object({ status: status('created'), swarm_name: z.string() }).describe('A swarm was started'),
  SwarmDetail: SwarmDetailSchema,
  SwarmStopped: z.object({ status: z.enum(['stopped', 'purged']).describe('Outcome'), swarm_name: z.string() }).describe('A swarm stopped'),
  SwarmRestarted: z
    .object({ status: status('restarted'), swarm_name: z.string(), delete_data: z.boolean().describe('Stored data was deleted') })
    .describe('A swarm restarted'),
  PauseResult: z
    .object({
      status: z.enum(['paused', 'resumed']).describe('Outcome'),
      swarm_name: z.string(),
      containers: z.number().describe('Containers paused or resumed'),
      skipped: z.array(z.string()).describe('Agents that are not docker-backed, untouched'),
    })
    .describe('A swarm was paused or resumed'),
  MessageRouted: z
    .object({ status: status('routed'), from: z.string(), to: z.string(), swarm: z.string() })
    .describe('A message was routed'),
  MessageList: z.object({ messages: z.array(MessageRowSchema) }).describe('The message log, newest first'),
  AgentList: z.object({ agents: z.array(AgentStatusSchema) }).describe('Agents of a swarm'),
  AgentStatus: AgentStatusSchema,
  NodeAdded: z.object({ status: status('added'), name: z.string() }).describe('An agent or object was added'),
  NodeRemoved: z.object({ status: status('removed'), name: z.string() }).describe('An agent or object was removed'),
  TaskSent: z
    .object({
      status: status('sent'),
      agent: z.string(),
      id: z.string().describe('Inbox item id'),
      queued: z.number().describe('Items queued before this one'),
    })
    .describe('A task was queued'),
  AgentRestarted: z.object({ status: status('restarted'), agent: z.string() }).describe('An agent restarted'),
  AgentResumed: z
    .object({
      status: status('resumed'),
      agent: z.string(),
      state: z.enum(['idle', 'busy']).describe('busy: the agent goes on with the turn that was open when it was held'),
    })
    .describe('An agent resumed'),
  ScaleResult: z
    .object({
      status: status('ok'),
      result: z.object({
        added: z.array(z.string()),
        removed: z.array(z.string()),
        failed: z.array(z.object({ name: z.string(), reason: z.string() })),
      }),
    })
    .describe('An agent group was scaled'),
  TurnList: z.object({ turns: z.array(TurnViewSchema) }).describe('Turns of an agent, newest first'),
  TurnDetail: TurnDetailSchema,
  AgentHistory: z.object({ history: z.array(HistoryEntrySchema) }).describe('What an agent received and sent'),
  AgentLogs: z.object({ logs: z.array(LogLineSchema) }).describe('Recent output lines of an agent'),
  AgentScreen: z
    .object({ screen: z.array(z.string()).nullable() })
    .describe("A TUI agent's pane text now (scrollback and screen, plain text, one string per line); null for a headless or stopped agent"),
  Topology: z.object({ topology: z.array(TopologyEntrySchema).readonly() }).describe('The topology'),
  TopologyPatched: z.object({ status: status('ok'), added: z.number(), removed: z.number() }).describe('Edges added and removed'),
  ObjectList: z.object({ objects: z.array(ObjectStatusSchema) }).describe('Objects of a swarm'),
  ObjectDetail: z
    .object({
      object: z.object({ name: z.string(), handler: z.string(), config: z.unknown().describe('Object config (redacted)') }),
      state: z.string(),
    })
    .describe('One object with its config'),
  ObjectConfigUpdated: z
    .object({ status: status('updated'), object: z.string(), keys: z.array(z.string()).describe('Keys changed') })
    .describe("An object's config was patched"),
  OverlayView: z.object({ swarm: z.string(), events: z.array(z.unknown()).describe('Overlay events (redacted)') }).describe('The overlay'),
  OverlayCleared: z.object({ status: status('cleared'), swarm: z.string() }).describe('The overlay was cleared'),
  Snapshot: z.record(z.string(), z.unknown()).describe('The effective swarm config, seed ⊕ overlay (redacted)'),
  EventPage: z
    .object({
      events: z.array(StoredEventSchema),
      count: z.number(),
      query: z
        .object({
          level: EventLevelSchema.optional(),
          category: EventCategorySchema.optional(),
          swarm: z.string().optional(),
          agent: z.string().optional(),
          event_type: z.string().optional(),
          minutes: z.number().optional(),
          limit: z.number(),
          since_id: z.number().optional(),
        })
        .describe('The query as parsed'),
    })
    .describe('One page of events'),
  ScopedEventPage: z
    .object({ events: z.array(StoredEventSchema), count: z.number(), swarm: z.string(), agent: z.string().optional() })
    .describe('One page of the events of a swarm or agent'),
  SkillList: z.object({ skills: z.array(SkillEntrySchema), count: z.number() }).describe('The skills catalogue'),
  SkillDocument: z.object({ name: z.string(), content: z.string(), size: z.number().describe('Bytes') }).describe('One skill'),
  ConfigValid: z
    .object({ valid: z.literal(true), format: z.string().describe('json, yaml or yml'), config: ConfigSummarySchema })
    .describe('The config would start'),
  ConfigInvalid: ErrorBodySchema.extend({ valid: z.literal(false) }).describe(
    'The config would be refused: an error body with valid:false',
  ),
  ...LLM_ANSWER_SCHEMAS,
  ...GIT_ANSWER_SCHEMAS,
} as const;

/** The fields every routed-message push carries (`to` and `type` differ between direct and broadcast). */
const MessagePushSchema = z.object({ timestamp: z.string(), swarm: z.string(), from: z.string(), content_preview: z.string() });

/** Payload of every server → client push on the `/swarm` namespace (docs/websocket.md). */
export const PUSH_SCHEMAS = {
  agent_output: z.object({ agent: z.string(), stream: z.enum(['stdout', 'stderr']), content: z.string() }).describe('Agent output'),
  message_routed: MessagePushSchema.extend({ to: z.string(), type: z.enum(['direct', 'ask']) }).describe('A message was routed'),
  message_broadcast: MessagePushSchema.extend({ to: z.array(z.string()).readonly(), type: z.literal('broadcast') }).describe(
    'A message was broadcast',
  ),
  agent_status: z.object({ agent: z.string(), state: z.string(), previous: z.string().nullable() }).describe('An agent changed state'),
  turn_completed: z
    .object({
      agent: z.string(),
      turn: z.string(),
      status: z.enum(['completed', 'error', 'timed_out']),
      error: z.string().optional(),
      reply_preview: z.string().nullable(),
    })
    .describe('A turn ended'),
  needs_attention: z.object({ agent: z.string(), turn: z.string().nullable(), reason: z.string() }).describe('An agent needs an operator'),
  swarm_started: z.object({ swarm: z.string(), status: z.enum(['running', 'error']) }).describe('A swarm started'),
  swarm_stopped: z.object({ swarm: z.string() }).describe('A swarm stopped'),
  agent_added: z.object({ name: z.string(), spec: z.unknown().describe('Agent config (redacted)') }).describe('An agent was added'),
  agent_removed: z.object({ name: z.string() }).describe('An agent was removed'),
  topology_changed: z.object({ topology: z.array(TopologyEntrySchema).readonly() }).describe('The topology changed'),
  event: StoredEventSchema,
  log_entry: LogEntrySchema,
} as const;

const ok = z.literal(true).describe('Success');

/** Success ack of every client → server event (a failure ack is ErrorBody plus `ok:false`). */
export const ACK_SCHEMAS = {
  join: z.object({ ok, swarm: z.string() }).describe('Joined the swarm room'),
  send_task: ANSWER_SCHEMAS.TaskSent.omit({ agent: true }).extend({ ok }).describe('The task was queued'),
  get_status: z.object({ ok, status: SwarmDetailSchema }).describe('The swarm detail'),
  subscribe_logs: z
    .object({
      ok,
      subscribed: z.literal(true),
      agent: z.string().nullable(),
      recent_logs: z.array(LogEntrySchema).describe('≤ 50, oldest first'),
    })
    .describe('Subscribed to log entries'),
  unsubscribe_logs: z.object({ ok, unsubscribed: z.literal(true), agent: z.string().nullable() }).describe('Unsubscribed from log entries'),
  subscribe_events: z
    .object({
      ok,
      subscribed: z.literal(true),
      filters: z.record(z.string(), z.string()).describe('The filter set as parsed'),
      recent_events: z.array(StoredEventSchema).describe('≤ 50, oldest first'),
    })
    .describe('Subscribed to events'),
  unsubscribe_events: z.object({ ok, unsubscribed: z.literal(true) }).describe('Dropped every event subscription'),
} as const;

export const AckFailureSchema = ErrorBodySchema.extend({ ok: z.literal(false) })
  .meta({ id: 'AckFailure' })
  .describe('A refused socket.io event: an error body with ok:false');

// ---- compile-time drift checks: every engine answer type must be a value of its schema ----
type Answer<K extends keyof typeof ANSWER_SCHEMAS> = z.output<(typeof ANSWER_SCHEMAS)[K]>;
/** Compiles only when `Value` is assignable to `Schema`. */
type Fits<Value extends Schema, Schema> = [Value, Schema];
type Push<T extends EnginePush['type']> = Extract<EnginePush, { type: T }>['payload'];

/** Each entry fails to compile when an engine type stops fitting its schema. */
export type AnswerSchemaChecks = [
  Fits<{ swarms: SwarmSummary[] }, Answer<'SwarmList'>>,
  Fits<Service.SwarmCreated, Answer<'SwarmCreated'>>,
  Fits<SwarmDetail, Answer<'SwarmDetail'>>,
  Fits<Service.SwarmStopped, Answer<'SwarmStopped'>>,
  Fits<Service.SwarmRestarted, Answer<'SwarmRestarted'>>,
  Fits<PauseResult, Answer<'PauseResult'>>,
  Fits<Service.MessageRouted, Answer<'MessageRouted'>>,
  Fits<{ messages: MessageRow[] }, Answer<'MessageList'>>,
  Fits<{ agents: AgentStatus[] }, Answer<'AgentList'>>,
  Fits<Service.NodeAdded, Answer<'NodeAdded'>>,
  Fits<Service.NodeRemoved, Answer<'NodeRemoved'>>,
  Fits<Service.TaskSent, Answer<'TaskSent'>>,
  Fits<Service.AgentRestarted, Answer<'AgentRestarted'>>,
  Fits<Service.AgentResumed, Answer<'AgentResumed'>>,
  Fits<Service.ScaleResult, Answer<'ScaleResult'>>,
  Fits<{ turns: TurnView[] }, Answer<'TurnList'>>,
  Fits<TurnDetail, Answer<'TurnDetail'>>,
  Fits<{ history: HistoryEntry[] }, Answer<'AgentHistory'>>,
  Fits<{ logs: LogLine[] }, Answer<'AgentLogs'>>,
  Fits<{ screen: string[] | null }, Answer<'AgentScreen'>>,
  Fits<{ topology: readonly TopologyEntry[] }, Answer<'Topology'>>,
  Fits<Service.TopologyPatched, Answer<'TopologyPatched'>>,
  Fits<{ objects: ObjectStatus[] }, Answer<'ObjectList'>>,
  Fits<Service.ObjectDetail, Answer<'ObjectDetail'>>,
  Fits<Service.ObjectConfigUpdated, Answer<'ObjectConfigUpdated'>>,
  Fits<Service.OverlayView, Answer<'OverlayView'>>,
  Fits<Service.OverlayCleared, Answer<'OverlayCleared'>>,
  Fits<{ events: StoredEvent[]; count: number; query: ParsedEventQuery }, Answer<'EventPage'>>,
  Fits<{ skills: SkillEntry[]; count: number }, Answer<'SkillList'>>,
  Fits<Service.SkillDocument, Answer<'SkillDocument'>>,
  Fits<ConfigSummary, z.output<typeof ConfigSummarySchema>>,
  Fits<LogEntry, z.output<typeof LogEntrySchema>>,
  Fits<{ [T in EnginePush['type']]: Push<T> }, { [T in EnginePush['type']]: z.output<(typeof PUSH_SCHEMAS)[T]> }>,
];
