/**
 * Every command body the edge accepts, as one zod schema each (HTTP routes and socket handlers parse
 * with these, once; engine methods take the parsed types and check only state rules). Each schema has
 * an `id` and a description, so an API document can be generated from this module.
 */
import { NAME_RE, NameSchema } from '@genswarms/ir-gate';
import { z } from 'zod';
import { LLM_COMMAND_SCHEMAS } from './llm-schemas';
import { GIT_COMMAND_SCHEMAS } from '../git/git-schemas';
import { EVENT_CATEGORY_NAMES, EVENT_LEVELS } from '../events/event-types';
import type { EventCategory, EventLevel } from '../store/store';

/** `POST /api/swarms`: exactly one of an inline config or a config file path. */
export const StartSwarmCommandSchema = z
  .strictObject({
    config: z.unknown().optional().describe('Inline swarm config object (docs/config.md)'),
    config_path: z.unknown().optional().describe('A .json/.yaml/.yml file inside GENSWARMS_SWARM_CONFIG_DIR'),
  })
  .refine((b) => (b.config === undefined) !== (b.config_path === undefined), { message: 'Send exactly one of config or config_path' })
  .meta({ id: 'StartSwarmCommand' })
  .describe('Start a swarm from an inline config or a config file under the config directory');

/** `POST /api/swarms/:s/agents/:a/task`. */
export const TaskCommandSchema = z
  .strictObject({ task: z.string().min(1).describe('Task text for the agent') })
  .meta({ id: 'TaskCommand' })
  .describe('Queue a task for one agent');
export type TaskCommand = z.infer<typeof TaskCommandSchema>;

/** socket.io `send_task`: the task command plus the agent it is for. */
export const SocketTaskCommandSchema = z
  .strictObject({ agent: z.string().describe('Agent name'), task: z.string().min(1).describe('Task text') })
  .meta({ id: 'SocketTaskCommand' })
  .describe('Queue a task for one agent of the joined swarm (socket.io send_task)');

/** `POST /api/swarms/:s/message`. */
export const MessageCommandSchema = z
  .strictObject({
    from: z.string().describe('Sender name (an agent, an object or any operator label)'),
    to: z.string().describe('Recipient agent or object'),
    content: z.string().describe('Message text'),
  })
  .meta({ id: 'MessageCommand' })
  .describe('Route one message as if the sender had sent it (fire and forget)');
export type MessageCommand = z.infer<typeof MessageCommandSchema>;

const NameListSchema = z.array(NameSchema).describe('Names of existing agents or objects');

/** `POST /api/swarms/:s/agents`: an agent config (checked by the ir-gate AgentSchema) plus its edges. */
export const AddAgentCommandSchema = z
  .looseObject({
    name: NameSchema.describe('Name of the new agent'),
    connections: NameListSchema.optional().describe('Nodes the new agent may send to'),
    incoming: NameListSchema.optional().describe('Nodes that may send to the new agent'),
  })
  .meta({ id: 'AddAgentCommand' })
  .describe('Add an agent to a running swarm; the other fields are an agent config');
export type AddAgentCommand = z.infer<typeof AddAgentCommandSchema>;

/** `POST /api/swarms/:s/objects`: an object config (checked by the ir-gate ObjectSchema) plus its edges. */
export const AddObjectCommandSchema = z
  .looseObject({
    name: NameSchema.describe('Name of the new object'),
    // Kept lenient as before: entries that are not strings are ignored; unknown nodes are refused by the gate.
    connections: z.array(z.unknown()).optional().catch(undefined).describe('Nodes the new object may send to'),
    incoming: z.array(z.unknown()).optional().catch(undefined).describe('Nodes that may send to the new object'),
  })
  .meta({ id: 'AddObjectCommand' })
  .describe('Add an object to a running swarm; the other fields are an object config');
export type AddObjectCommand = z.infer<typeof AddObjectCommandSchema>;

/** `POST /api/swarms/:s/agents/:base/scale`. No upper bound: above the cap is the engine's `agent_cap_exceeded`. */
export const ScaleCommandSchema = z
  .strictObject({
    count: z
      .number()
      .min(0)
      .refine((n) => Number.isInteger(n), 'expected an integer')
      .describe('Wanted number of instances of the base agent'),
  })
  .meta({ id: 'ScaleCommand' })
  .describe('Scale an agent group to a number of instances');
export type ScaleCommand = z.infer<typeof ScaleCommandSchema>;

/** One topology edge, as `[from, to]` or `{from, to}`. */
export type Edge = readonly [from: string, to: string];
const EdgeSchema = z
  .union([
    z.tuple([NameSchema, NameSchema]).describe('[from, to]'),
    z.strictObject({ from: NameSchema, to: NameSchema }).describe('{from, to}'),
  ])
  .transform((e): Edge => (Array.isArray(e) ? [e[0], e[1]] : [e.from, e.to]))
  .describe('One directed edge');

/** `PATCH /api/swarms/:s/topology`: all or nothing. */
export const TopologyPatchCommandSchema = z
  .strictObject({
    add: z.array(EdgeSchema).max(10000).optional().describe('Edges to add'),
    remove: z.array(EdgeSchema).max(10000).optional().describe('Edges to remove'),
  })
  .meta({ id: 'TopologyPatchCommand' })
  .describe('Add and remove topology edges; any refused edge refuses the whole patch');
export type TopologyPatchCommand = z.infer<typeof TopologyPatchCommandSchema>;

/** A topology patch as the engine takes it (what `TopologyPatchCommand` parses to, read-only). */
export interface TopologyPatch {
  readonly add?: readonly Edge[];
  readonly remove?: readonly Edge[];
}

/** `PATCH /api/swarms/:s/objects/:o/config`. The keys are checked by the object's handler. */
export const ObjectConfigPatchCommandSchema = z
  .strictObject({ config: z.unknown().describe('Partial object config; merged over the current one') })
  .meta({ id: 'ObjectConfigPatchCommand' })
  .describe("Patch an object's config (the object restarts with the merged config)");
export type ObjectConfigPatchCommand = z.infer<typeof ObjectConfigPatchCommandSchema>;

/** socket.io `join`. */
export const JoinCommandSchema = z
  .strictObject({ swarm: NameSchema.describe('Swarm name') })
  .meta({ id: 'JoinCommand' })
  .describe('Join the room of one swarm (a socket is in at most one)');

/** socket.io `get_status`, `unsubscribe_events`: no fields. */
export const EmptyCommandSchema = z.strictObject({}).optional().meta({ id: 'EmptyCommand' }).describe('No payload (or an empty object)');

/** socket.io `subscribe_logs` / `unsubscribe_logs`. */
export const LogsCommandSchema = z
  .strictObject({ agent: NameSchema.optional().describe('One agent; omitted = every agent') })
  .optional()
  .meta({ id: 'LogsCommand' })
  .describe('Subscribe to (or unsubscribe from) the log entries of one agent or all');

/** socket.io `subscribe_events`; the filter set itself is checked by `parseEventFilters` (`param` = the bad key). */
export const EventsCommandSchema = z
  .strictObject({ filters: z.unknown().optional().describe('Filter set {level?, category?, event_type?, agent?}; omitted = all events') })
  .optional()
  .meta({ id: 'EventsCommand' })
  .describe('Subscribe to the events that match one filter set');

/** Event types are snake_case words. */
export const EVENT_TYPE_RE = /^[a-z][a-z0-9_]{0,63}$/;
const DIGITS_RE = /^[0-9]{1,15}$/;

/**
 * One query value: a string (an integer number is taken as its text); a repeated parameter (array) or
 * anything else is refused. Each message is the `why` of `Invalid query parameter <param>: <why>.`
 */
function queryValue<T extends z.ZodType<unknown, string>>(inner: T) {
  const text = z.string({ error: 'expected a single value' });
  return z.preprocess((v) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : v), text.pipe(inner)).optional();
}

function intValue(min: number, max: number) {
  const why = `expected an integer ${min}-${max}`;
  return queryValue(z.string().regex(DIGITS_RE, why).transform(Number).pipe(z.number().min(min, why).max(max, why)));
}

const nameValue = (what: string) => queryValue(z.string().regex(NAME_RE, 'malformed value')).describe(what);

/**
 * `GET /api/events` (and the scoped routes, whose path fills `swarm`/`agent`): every key optional, `limit`
 * 1-1000 (default 100). Parameters not listed here are ignored by the edge, not refused.
 */
export const EventQueryCommandSchema = z
  .object({
    level: queryValue(
      z.enum(EVENT_LEVELS as [EventLevel, ...EventLevel[]], { error: `expected one of ${EVENT_LEVELS.join(', ')}` }),
    ).describe('Only events of this level'),
    category: queryValue(
      z.enum(EVENT_CATEGORY_NAMES as [EventCategory, ...EventCategory[]], { error: `expected one of ${EVENT_CATEGORY_NAMES.join(', ')}` }),
    ).describe('Only events of this category'),
    swarm: nameValue('Only events of this swarm'),
    agent: nameValue('Only events of this agent or object'),
    event_type: queryValue(z.string().regex(EVENT_TYPE_RE, 'malformed value')).describe('Only events of this type'),
    minutes: intValue(1, 525600).describe('Only events of the last N minutes'),
    limit: intValue(1, 1000).describe('At most this many events (default 100)'),
    since_id: intValue(0, Number.MAX_SAFE_INTEGER).describe('Only events after this id, oldest first'),
  })
  .meta({ id: 'EventQueryCommand' })
  .describe('Filter and page the stored events');

/** Every command schema by name, for documentation generators. */
export const COMMAND_SCHEMAS = {
  StartSwarmCommand: StartSwarmCommandSchema,
  TaskCommand: TaskCommandSchema,
  SocketTaskCommand: SocketTaskCommandSchema,
  MessageCommand: MessageCommandSchema,
  AddAgentCommand: AddAgentCommandSchema,
  AddObjectCommand: AddObjectCommandSchema,
  ScaleCommand: ScaleCommandSchema,
  TopologyPatchCommand: TopologyPatchCommandSchema,
  ObjectConfigPatchCommand: ObjectConfigPatchCommandSchema,
  JoinCommand: JoinCommandSchema,
  EmptyCommand: EmptyCommandSchema,
  LogsCommand: LogsCommandSchema,
  EventsCommand: EventsCommandSchema,
  EventQueryCommand: EventQueryCommandSchema,
  ...LLM_COMMAND_SCHEMAS,
  ...GIT_COMMAND_SCHEMAS,
} as const;
