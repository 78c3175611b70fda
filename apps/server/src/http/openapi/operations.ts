/**
 * Every REST operation the server routes, with the zod schemas of its parameters, body and answers and
 * the error codes it may answer beyond the pipeline's. The OpenAPI document is built from this table;
 * test/openapi-routes.spec.ts fails when the express router and this table disagree.
 */
import { z } from 'zod';
import { ANSWER_SCHEMAS, COMMAND_SCHEMAS, PLAN_ERROR_CODES } from '@genswarms/engine';
import type { EngineErrorCode } from '@genswarms/engine';
import { NameSchema } from '@genswarms/ir-gate';
import { TURN_ID_RE } from '@genswarms/receipts';
import { ValidateConfigCommandSchema } from '../routes/config-validate';
import { GIT_OPERATIONS } from './git-operations';
import { LLM_OPERATIONS } from './llm-operations';

/** An error code and, when it differs from the engine's table, the status it is answered with. */
export type ErrorSpec = EngineErrorCode | readonly [code: string, status: number];

export interface Operation {
  readonly method: 'get' | 'post' | 'delete' | 'patch';
  /** Express form (`/api/swarms/:s`); the document uses `{s}`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  /** `config`: the config token is accepted too; `public`: no token at all (health probes, docs/security.md). */
  readonly scope: 'full' | 'config' | 'public';
  readonly query?: z.ZodObject;
  readonly body?: { readonly name: string; readonly schema: z.ZodType };
  readonly success: {
    readonly status: 200 | 201;
    readonly name: string;
    readonly schema: z.ZodType;
    readonly yaml?: boolean;
    /** A text answer of this media type instead of JSON. */
    readonly text?: string;
  };
  /** Answers that are neither success nor ErrorBody (`/readyz` 503 `{status:"not_ready"}`). */
  readonly otherResponses?: Readonly<Record<string, { readonly name: string; readonly schema: z.ZodType }>>;
  readonly errors: readonly ErrorSpec[];
  /** A 400 answered with this body instead of ErrorBody (config validate answers `valid:false`). */
  readonly badRequestBody?: { readonly name: string; readonly schema: z.ZodType };
}

/** Descriptions of the path parameters (all Names but `name`, a skill name). */
export const PATH_PARAMS: Readonly<Record<string, { readonly description: string; readonly schema: z.ZodType }>> = {
  s: { description: 'Swarm name', schema: NameSchema },
  a: { description: 'Agent name', schema: NameSchema },
  o: { description: 'Object name', schema: NameSchema },
  base: { description: 'Base name of an agent group', schema: NameSchema },
  t: { description: 'Turn id', schema: z.string().regex(TURN_ID_RE) },
  name: { description: 'Skill name (".md" optional; a name inside a category is found through the catalogue)', schema: z.string() },
};

const limit = (max: number, fallback: number) =>
  z.object({ limit: z.int().min(1).max(max).optional().describe(`At most this many entries, 1-${max} (default ${fallback})`) });
const flag = (name: string, what: string) => z.object({ [name]: z.enum(['true', 'false']).optional().describe(what) }) as z.ZodObject;
const EventQuery = COMMAND_SCHEMAS.EventQueryCommand;

/** The answer of `GET /api/openapi.json`, described loosely (its own schema is the OpenAPI 3.1 one). */
const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string().describe('3.1.x'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.looseObject({}),
  })
  .describe('An OpenAPI 3.1 document');
const HealthStatusSchema = z.object({ status: z.literal('ok') }).describe('The process answers');
const ReadyStatusSchema = z.object({ status: z.literal('ready') }).describe('The store answers and the runners were probed');
const NotReadyStatusSchema = z.object({ status: z.literal('not_ready') }).describe('Not ready, or shutting down');

const SWARM: readonly ErrorSpec[] = ['swarm_not_found'];
const AGENT: readonly ErrorSpec[] = ['swarm_not_found', 'agent_not_found'];
const OBJECT: readonly ErrorSpec[] = ['swarm_not_found', 'object_not_found'];
const CONFIG_SOURCE: readonly EngineErrorCode[] = [
  'validation_failed',
  'invalid_config_path',
  'unsupported_format',
  'config_unreadable',
  'config_too_large',
  'config_parse_error',
  'ir_validation_failed',
];
const START: readonly ErrorSpec[] = [...CONFIG_SOURCE, 'already_exists', 'agent_cap_exceeded', ...PLAN_ERROR_CODES, 'runner_error'];
const body = (name: keyof typeof COMMAND_SCHEMAS) => ({ name, schema: COMMAND_SCHEMAS[name] });
const ok = (name: keyof typeof ANSWER_SCHEMAS, status: 200 | 201 = 200) => ({ status, name, schema: ANSWER_SCHEMAS[name] });

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/',
    operationId: 'getApi',
    tag: 'api',
    summary: 'The API descriptor',
    scope: 'full',
    success: ok('ApiDescriptor'),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApi',
    tag: 'api',
    summary: 'This OpenAPI 3.1 document',
    scope: 'full',
    success: { status: 200, name: 'OpenApiDocument', schema: OpenApiDocumentSchema },
    errors: [],
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    tag: 'health',
    summary: 'Liveness',
    scope: 'public',
    success: { status: 200, name: 'HealthStatus', schema: HealthStatusSchema },
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    tag: 'health',
    summary: 'Readiness',
    scope: 'public',
    success: { status: 200, name: 'ReadyStatus', schema: ReadyStatusSchema },
    otherResponses: { '503': { name: 'NotReadyStatus', schema: NotReadyStatusSchema } },
    errors: [],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'health',
    summary: 'Prometheus metrics (text exposition format)',
    scope: 'full',
    success: {
      status: 200,
      name: 'Metrics',
      schema: z.string().describe('Prometheus text format 0.0.4'),
      text: 'text/plain; version=0.0.4',
    },
    errors: [],
  },
  // ---- swarms ----
  {
    method: 'get',
    path: '/api/swarms',
    operationId: 'listSwarms',
    tag: 'swarms',
    summary: 'List swarms',
    scope: 'full',
    success: ok('SwarmList'),
    errors: [],
  },
  {
    method: 'post',
    path: '/api/swarms',
    operationId: 'startSwarm',
    tag: 'swarms',
    summary: 'Start a swarm',
    scope: 'full',
    body: body('StartSwarmCommand'),
    success: ok('SwarmCreated', 201),
    errors: START,
  },
  {
    method: 'get',
    path: '/api/swarms/:s',
    operationId: 'getSwarm',
    tag: 'swarms',
    summary: 'Swarm detail',
    scope: 'full',
    success: ok('SwarmDetail'),
    errors: SWARM,
  },
  {
    method: 'delete',
    path: '/api/swarms/:s',
    operationId: 'stopSwarm',
    tag: 'swarms',
    summary: 'Stop (or purge) a swarm',
    scope: 'full',
    query: flag('purge', 'Also delete its events, messages, turns, default workspaces, overlay and registry entry'),
    success: ok('SwarmStopped'),
    errors: [...SWARM, 'invalid_query'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/restart',
    operationId: 'restartSwarm',
    tag: 'swarms',
    summary: 'Restart a swarm',
    scope: 'full',
    query: flag('delete', 'Delete its events, messages, turns and default workspaces first'),
    success: ok('SwarmRestarted'),
    errors: [...SWARM, 'invalid_query', ...START],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/pause',
    operationId: 'pauseSwarm',
    tag: 'swarms',
    summary: 'Pause docker-backed agents',
    scope: 'full',
    success: ok('PauseResult'),
    errors: [...SWARM, 'runner_error'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/resume',
    operationId: 'resumeSwarm',
    tag: 'swarms',
    summary: 'Resume docker-backed agents',
    scope: 'full',
    success: ok('PauseResult'),
    errors: [...SWARM, 'runner_error'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/snapshot',
    operationId: 'snapshotSwarm',
    tag: 'swarms',
    summary: 'The effective config (seed ⊕ overlay), redacted',
    scope: 'full',
    query: z.object({ format: z.enum(['json', 'yaml']).optional().describe('Answer as JSON (default) or YAML') }),
    success: { ...ok('Snapshot'), yaml: true },
    errors: [...SWARM, 'invalid_query'],
  },
  // ---- messages ----
  {
    method: 'post',
    path: '/api/swarms/:s/message',
    operationId: 'sendMessage',
    tag: 'messages',
    summary: 'Route one message',
    scope: 'full',
    body: body('MessageCommand'),
    success: ok('MessageRouted'),
    errors: [...SWARM, 'validation_failed'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/messages',
    operationId: 'listMessages',
    tag: 'messages',
    summary: 'The message log, newest first',
    scope: 'full',
    query: limit(1000, 100),
    success: ok('MessageList'),
    errors: [...SWARM, 'invalid_query'],
  },
  // ---- agents ----
  {
    method: 'get',
    path: '/api/swarms/:s/agents',
    operationId: 'listAgents',
    tag: 'agents',
    summary: 'Agents of a swarm',
    scope: 'full',
    success: ok('AgentList'),
    errors: SWARM,
  },
  {
    method: 'post',
    path: '/api/swarms/:s/agents',
    operationId: 'addAgent',
    tag: 'agents',
    summary: 'Add an agent to a running swarm',
    scope: 'full',
    body: body('AddAgentCommand'),
    success: ok('NodeAdded', 201),
    errors: [
      ...SWARM,
      'invalid_name',
      'validation_failed',
      'already_exists',
      'agent_cap_exceeded',
      'forbidden_config_keys',
      'unknown_edge_endpoint',
      ...PLAN_ERROR_CODES,
      'runner_error',
    ],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a',
    operationId: 'getAgent',
    tag: 'agents',
    summary: 'Agent status',
    scope: 'full',
    success: ok('AgentStatus'),
    errors: AGENT,
  },
  {
    method: 'delete',
    path: '/api/swarms/:s/agents/:a',
    operationId: 'removeAgent',
    tag: 'agents',
    summary: 'Remove an agent',
    scope: 'full',
    success: ok('NodeRemoved'),
    errors: AGENT,
  },
  {
    method: 'post',
    path: '/api/swarms/:s/agents/:a/task',
    operationId: 'sendTask',
    tag: 'agents',
    summary: 'Queue a task',
    scope: 'full',
    body: body('TaskCommand'),
    success: ok('TaskSent'),
    errors: [...AGENT, 'validation_failed', 'inbox_full', 'agent_not_ready', 'needs_attention'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/agents/:a/restart',
    operationId: 'restartAgent',
    tag: 'agents',
    summary: 'Restart an agent',
    scope: 'full',
    success: ok('AgentRestarted'),
    errors: [...AGENT, ...PLAN_ERROR_CODES, 'runner_error'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/agents/:a/resume',
    operationId: 'resumeAgent',
    tag: 'agents',
    summary: 'Resume an agent that needs attention',
    scope: 'full',
    success: ok('AgentResumed'),
    errors: [...AGENT, 'invalid_state'],
  },
  {
    method: 'post',
    path: '/api/swarms/:s/agents/:base/scale',
    operationId: 'scaleAgents',
    tag: 'agents',
    summary: 'Scale an agent group',
    scope: 'full',
    body: body('ScaleCommand'),
    success: ok('ScaleResult'),
    errors: [...AGENT, 'invalid_count', 'agent_cap_exceeded', ...PLAN_ERROR_CODES, 'runner_error'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/turns',
    operationId: 'listTurns',
    tag: 'agents',
    summary: 'Turns of an agent, newest first',
    scope: 'full',
    query: limit(500, 50),
    success: ok('TurnList'),
    errors: [...AGENT, 'invalid_query'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/turns/:t',
    operationId: 'getTurn',
    tag: 'agents',
    summary: 'One turn of an agent with its full reply',
    scope: 'full',
    success: ok('TurnDetail'),
    errors: [...AGENT, 'turn_not_found'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/history',
    operationId: 'agentHistory',
    tag: 'agents',
    summary: 'What an agent received and sent, newest first',
    scope: 'full',
    query: limit(1000, 100),
    success: ok('AgentHistory'),
    errors: [...AGENT, 'invalid_query'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/logs',
    operationId: 'agentLogs',
    tag: 'agents',
    summary: 'Recent output lines',
    scope: 'full',
    success: ok('AgentLogs'),
    errors: AGENT,
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/screen',
    operationId: 'agentScreen',
    tag: 'agents',
    summary: "A TUI agent's pane text now",
    scope: 'full',
    success: ok('AgentScreen'),
    errors: AGENT,
  },
  // ---- topology ----
  {
    method: 'get',
    path: '/api/swarms/:s/topology',
    operationId: 'getTopology',
    tag: 'topology',
    summary: 'The topology',
    scope: 'full',
    success: ok('Topology'),
    errors: SWARM,
  },
  {
    method: 'patch',
    path: '/api/swarms/:s/topology',
    operationId: 'patchTopology',
    tag: 'topology',
    summary: 'Add and remove edges (all or nothing)',
    scope: 'full',
    body: body('TopologyPatchCommand'),
    success: ok('TopologyPatched'),
    errors: [...SWARM, 'validation_failed', 'unknown_edge_endpoint'],
  },
  // ---- objects ----
  {
    method: 'get',
    path: '/api/swarms/:s/objects',
    operationId: 'listObjects',
    tag: 'objects',
    summary: 'Objects of a swarm',
    scope: 'full',
    success: ok('ObjectList'),
    errors: SWARM,
  },
  {
    method: 'post',
    path: '/api/swarms/:s/objects',
    operationId: 'addObject',
    tag: 'objects',
    summary: 'Add an object to a running swarm',
    scope: 'full',
    body: body('AddObjectCommand'),
    success: ok('NodeAdded', 201),
    errors: [
      ...SWARM,
      'invalid_name',
      'validation_failed',
      'invalid_handler',
      'already_exists',
      'unknown_edge_endpoint',
      'object_init_failed',
    ],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/objects/:o',
    operationId: 'getObject',
    tag: 'objects',
    summary: 'Object detail',
    scope: 'full',
    success: ok('ObjectDetail'),
    errors: OBJECT,
  },
  {
    method: 'delete',
    path: '/api/swarms/:s/objects/:o',
    operationId: 'removeObject',
    tag: 'objects',
    summary: 'Remove an object',
    scope: 'full',
    success: ok('NodeRemoved'),
    errors: OBJECT,
  },
  {
    method: 'patch',
    path: '/api/swarms/:s/objects/:o/config',
    operationId: 'patchObjectConfig',
    tag: 'objects',
    summary: "Patch an object's config",
    scope: 'config',
    body: body('ObjectConfigPatchCommand'),
    success: ok('ObjectConfigUpdated'),
    errors: [
      ...OBJECT,
      'validation_failed',
      ['forbidden_config_keys', 422],
      'patch_too_large',
      'no_config_schema',
      'immutable_keys',
      'object_init_failed',
    ],
  },
  // ---- overlay ----
  {
    method: 'get',
    path: '/api/swarms/:s/overlay',
    operationId: 'getOverlay',
    tag: 'overlay',
    summary: 'The runtime overlay',
    scope: 'config',
    success: ok('OverlayView'),
    errors: [],
  },
  {
    method: 'delete',
    path: '/api/swarms/:s/overlay',
    operationId: 'clearOverlay',
    tag: 'overlay',
    summary: 'Clear the overlay',
    scope: 'full',
    success: ok('OverlayCleared'),
    errors: [],
  },
  // ---- events ----
  {
    method: 'get',
    path: '/api/events',
    operationId: 'queryEvents',
    tag: 'events',
    summary: 'Stored events',
    scope: 'full',
    query: EventQuery,
    success: ok('EventPage'),
    errors: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/events',
    operationId: 'swarmEvents',
    tag: 'events',
    summary: 'Events of a swarm',
    scope: 'full',
    query: EventQuery.omit({ swarm: true }),
    success: ok('ScopedEventPage'),
    errors: ['invalid_query'],
  },
  {
    method: 'get',
    path: '/api/swarms/:s/agents/:a/events',
    operationId: 'agentEvents',
    tag: 'events',
    summary: 'Events of an agent',
    scope: 'full',
    query: EventQuery.omit({ swarm: true, agent: true }),
    success: ok('ScopedEventPage'),
    errors: ['invalid_query'],
  },
  // ---- skills ----
  {
    method: 'get',
    path: '/api/skills',
    operationId: 'listSkills',
    tag: 'skills',
    summary: 'The skills catalogue',
    scope: 'full',
    success: ok('SkillList'),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/skills/:name',
    operationId: 'readSkill',
    tag: 'skills',
    summary: 'One skill',
    scope: 'full',
    success: ok('SkillDocument'),
    errors: ['invalid_name', 'not_found'],
  },
  // ---- config ----
  {
    method: 'post',
    path: '/api/config/validate',
    operationId: 'validateConfig',
    tag: 'config',
    summary: 'Run every plan-time check of start, creating nothing',
    scope: 'full',
    body: { name: 'ValidateConfigCommand', schema: ValidateConfigCommandSchema },
    success: ok('ConfigValid'),
    errors: [...CONFIG_SOURCE, 'agent_cap_exceeded', 'invalid_handler', ...PLAN_ERROR_CODES],
    badRequestBody: { name: 'ConfigInvalid', schema: ANSWER_SCHEMAS.ConfigInvalid },
  },
  ...LLM_OPERATIONS,
  ...GIT_OPERATIONS,
];
