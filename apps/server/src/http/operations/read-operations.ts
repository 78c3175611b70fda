/** Stored events, the skills catalogue and config validation. */
import { ANSWER_SCHEMAS, COMMAND_SCHEMAS, PLAN_ERROR_CODES } from '@genswarms/engine';
import { ValidateConfigCommandSchema } from './config-validate-bodies';
import { CONFIG_SOURCE, ok } from './kit';
import type { Operation } from './operation';

const EventQuery = COMMAND_SCHEMAS.EventQueryCommand;

export const READ_OPERATIONS = [
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
] as const satisfies readonly Operation[];
