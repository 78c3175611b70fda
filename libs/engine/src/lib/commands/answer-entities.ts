/**
 * The entities the edge's answers are made of (agents, swarms, events, turns, messages, …), one zod schema each:
 * descriptions, not parsers (answer-schemas.ts puts them together and checks them against the engine's types).
 */
import { z } from 'zod';
import { LlmUsageSchema } from './llm-schemas';

const ts = (what: string) => z.string().describe(`${what} (ISO 8601)`);
const nullableTs = (what: string) => z.string().nullable().describe(`${what} (ISO 8601), null when unknown`);
export const EventLevelSchema = z.enum(['debug', 'info', 'warning', 'error']).describe('Event level');
export const EventCategorySchema = z.enum(['swarm', 'agent', 'object', 'routing', 'backend', 'system']).describe('Event category');
export const SwarmStatusSchema = z.enum(['starting', 'running', 'stopping', 'stopped', 'error']).describe('Swarm status');
const MetadataSchema = z.record(z.string(), z.unknown()).describe('Event details (secrets redacted)');

/** The error body (docs/rest-api.md); `details` keys are listed in docs/rest-api.md (never paths, tokens or file contents). */
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
