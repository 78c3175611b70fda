import { EngineError } from '../errors/engine-error';
import { parseEventQuery } from '../events/event-query';
import { COMMAND_SCHEMAS } from './command-schemas';
import {
  parseAddAgentCommand,
  parseAddObjectCommand,
  parseLimitParam,
  parseMessageCommand,
  parseObjectConfigPatchCommand,
  parseScaleCommand,
  parseSnapshotFormat,
  parseStartCommand,
  parseTaskCommand,
  parseTopologyPatchCommand,
} from './parse-command';
import { refusal } from '@genswarms/test-kit';

describe('command schemas', () => {
  test.each(Object.entries(COMMAND_SCHEMAS))('%s has a description', (_name, schema) => {
    expect(schema.description?.length ?? 0).toBeGreaterThan(10);
  });
});

describe('edge command parsers refuse malformed bodies with the documented codes', () => {
  test.each<[string, () => unknown, string]>([
    ['task: empty', () => parseTaskCommand({ task: '' }), 'validation_failed'],
    ['task: extra key', () => parseTaskCommand({ task: 'x', extra: 1 }), 'validation_failed'],
    ['task: __proto__ key', () => parseTaskCommand(JSON.parse('{"task":"x","__proto__":{"admin":true}}')), 'validation_failed'],
    ['message: number content', () => parseMessageCommand({ from: 'a', to: 'b', content: 1 }), 'validation_failed'],
    ['start: both', () => parseStartCommand({ config: {}, config_path: 'a.json' }), 'validation_failed'],
    ['start: non-string path', () => parseStartCommand({ config_path: 7 }), 'invalid_config_path'],
    ['scale: negative', () => parseScaleCommand({ count: -1 }), 'invalid_count'],
    ['scale: fraction', () => parseScaleCommand({ count: 1.5 }), 'invalid_count'],
    ['scale: string', () => parseScaleCommand({ count: '2' }), 'invalid_count'],
    ['agent: name with a space', () => parseAddAgentCommand({ name: 'bad name' }), 'invalid_name'],
    ['agent: name with NUL', () => parseAddAgentCommand({ name: 'a\u0000' }), 'invalid_name'],
    ['agent: name too long', () => parseAddAgentCommand({ name: 'a'.repeat(65) }), 'invalid_name'],
    ['agent: not an object', () => parseAddAgentCommand([]), 'invalid_name'],
    ['agent: connections not names', () => parseAddAgentCommand({ name: 'a', connections: ['..'] }), 'validation_failed'],
    ['object: name "*"', () => parseAddObjectCommand({ name: '*', handler: 'counter' }), 'invalid_name'],
    ['topology: one-ended edge', () => parseTopologyPatchCommand({ add: [['a']] }), 'validation_failed'],
    ['topology: off-grammar node', () => parseTopologyPatchCommand({ add: [['a', '1x']] }), 'validation_failed'],
    ['topology: extra edge key', () => parseTopologyPatchCommand({ add: [{ from: 'a', to: 'b', via: 'c' }] }), 'validation_failed'],
    ['object config: missing config key', () => parseObjectConfigPatchCommand({ cfg: {} }), 'validation_failed'],
    ['limit: zero', () => parseLimitParam('0', 100, 10), 'invalid_query'],
    ['limit: above max', () => parseLimitParam('101', 100, 10), 'invalid_query'],
    ['limit: not digits', () => parseLimitParam('1e2', 100, 10), 'invalid_query'],
    ['format: xml', () => parseSnapshotFormat('xml'), 'invalid_query'],
  ])('%s', (_name, fn, code) => {
    expect(refusal(EngineError, fn).code).toBe(code);
  });

  it('names the offending list of a new agent', () => {
    expect(refusal(EngineError, () => parseAddAgentCommand({ name: 'a', incoming: [1] })).details).toEqual({
      issues: [{ path: 'incoming', message: 'expected a list of names' }],
    });
  });

  it('issues carry paths and messages, never the offending values', () => {
    const { details } = refusal(EngineError, () => parseMessageCommand({ from: 'a', to: 'b', content: { secret: 'sk-VALUE' } }));
    expect(JSON.stringify(details)).not.toContain('sk-VALUE');
  });
});

describe('edge command parsers hand the engine typed values', () => {
  it('normalises edges to [from, to] pairs', () => {
    expect(parseTopologyPatchCommand({ add: [['a', 'b'], { from: 'b', to: 'a' }] })).toEqual({
      add: [
        ['a', 'b'],
        ['b', 'a'],
      ],
    });
  });

  it('keeps an agent config beside its edges', () => {
    expect(parseAddAgentCommand({ name: 'a', backend: { type: 'mock' }, connections: ['b'] })).toEqual({
      name: 'a',
      backend: { type: 'mock' },
      connections: ['b'],
    });
  });

  it('ignores object edge lists that are not lists, as before', () => {
    expect(parseAddObjectCommand({ name: 'o', handler: 'counter', connections: 5 })).toEqual({ name: 'o', handler: 'counter' });
  });

  it('maps start bodies to a StartInput', () => {
    expect(parseStartCommand({ config_path: 'a.yaml' })).toEqual({ path: 'a.yaml' });
    expect(parseStartCommand({ config: { name: 'x' } })).toEqual({ config: { name: 'x' } });
  });

  it('defaults an absent limit and format', () => {
    expect(parseLimitParam(undefined, 100, 10)).toBe(10);
    expect(parseSnapshotFormat(undefined)).toBe('json');
  });
});

describe('the event query is parsed with EventQueryCommandSchema', () => {
  test.each<[string, Record<string, unknown>, string, string]>([
    ['a repeated parameter', { limit: ['1', '2'] }, 'limit', 'expected a single value'],
    ['an object value', { agent: { $ne: 1 } }, 'agent', 'expected a single value'],
    ['an unknown level', { level: 'loud' }, 'level', 'expected one of debug, info, warning, error'],
    ['limit 0', { limit: '0' }, 'limit', 'expected an integer 1-1000'],
    ['a negative since_id', { since_id: '-1' }, 'since_id', 'expected an integer 0-9007199254740991'],
    ['minutes as a float', { minutes: 1.5 }, 'minutes', 'expected a single value'],
    ['an off-grammar swarm', { swarm: '..' }, 'swarm', 'malformed value'],
    ['a NUL in the event type', { event_type: 'a\u0000' }, 'event_type', 'malformed value'],
    ['the first bad parameter wins', { limit: '0', level: 'x' }, 'level', 'expected one of debug, info, warning, error'],
  ])('%s → invalid_query', (_name, raw, param, why) => {
    let caught: unknown;
    try {
      parseEventQuery(raw);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EngineError);
    expect(caught).toMatchObject({ code: 'invalid_query', message: `Invalid query parameter ${param}: ${why}.`, details: { param } });
  });

  it('accepts integers as numbers or text and defaults the limit', () => {
    expect(parseEventQuery({ limit: 5, since_id: '7', level: 'error', swarm: 's', ignored: 'x' } as Record<string, unknown>)).toEqual({
      limit: 5,
      since_id: 7,
      level: 'error',
      swarm: 's',
    });
    expect(parseEventQuery({})).toEqual({ limit: 100 });
  });
});
