/**
 * Every answer the edge sends, as one zod schema each: REST success bodies, the error body, socket.io
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
import { LLM_ANSWER_SCHEMAS } from './llm-schemas';
import { GIT_ANSWER_SCHEMAS } from '../git/git-schemas';

import {
  EventLevelSchema,
  EventCategorySchema,
  ErrorBodySchema,
  TopologyEntrySchema,
  AgentStatusSchema,
  ObjectStatusSchema,
  SwarmSummarySchema,
  SwarmDetailSchema,
  StoredEventSchema,
  LogEntrySchema,
  TurnViewSchema,
  TurnDetailSchema,
  HistoryEntrySchema,
  MessageRowSchema,
  LogLineSchema,
  SkillEntrySchema,
  ConfigSummarySchema,
} from './answer-entities';

export { ErrorBodySchema } from './answer-entities';
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
