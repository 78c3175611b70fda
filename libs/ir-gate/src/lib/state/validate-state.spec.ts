import { irAgent, irObject, irState } from '../test-support/fixtures';
import { validateState } from './validate-state';

const base = (): Record<string, unknown> => irState([irAgent('a')]) as unknown as Record<string, unknown>;
const with_ = (patch: Record<string, unknown>): unknown => ({ ...base(), ...patch });

describe('validateState (docs/ir.md)', () => {
  test('accepts a minimal state and defaults objects/topology', () => {
    expect(validateState(base())).toBeNull();
    const { objects: _o, topology: _t, options: _p, ...rest } = base();
    expect(validateState(rest)).toBeNull();
  });

  test.each([
    ['not an object', null, { code: 'unsupported_version', value: null }],
    ['v missing', with_({ v: undefined }), { code: 'unsupported_version', value: null }],
    ['v 2', with_({ v: 2 }), { code: 'unsupported_version', value: 2 }],
    ['wrong kind', with_({ kind: 'swarm.overlay' }), { code: 'wrong_kind', value: 'swarm.overlay' }],
    ['no name', with_({ name: '' }), { code: 'missing', field: 'name' }],
    ['bad phase', with_({ phase: 'live' }), { code: 'invalid_phase', value: 'live' }],
    ['agents missing', with_({ agents: undefined }), { code: 'missing', field: 'agents' }],
    ['agents not array', with_({ agents: {} }), { code: 'invalid', field: 'agents' }],
    ['objects not array', with_({ objects: 1 }), { code: 'invalid', field: 'objects' }],
    ['topology not array', with_({ topology: {} }), { code: 'invalid_topology' }],
    ['edge not a pair', with_({ topology: [['a']] }), { code: 'invalid_edge', index: 0 }],
    ['edge with number', with_({ topology: [['a', 1]] }), { code: 'invalid_edge', index: 0 }],
    ['duplicate agent', with_({ agents: [irAgent('a'), irAgent('a')] }), { code: 'duplicate_name', name: 'a' }],
    ['agent vs object', with_({ objects: [irObject('a')] }), { code: 'duplicate_name', name: 'a' }],
    ['unknown from', with_({ topology: [['x', 'y']] }), { code: 'unknown_edge_endpoint', endpoint: 'x' }],
    ['unknown to', with_({ topology: [['a', 'y']] }), { code: 'unknown_edge_endpoint', endpoint: 'y' }],
  ])('%s', (_label, x, expected) => {
    expect(validateState(x)).toEqual(expected);
  });

  test('reports the first problem in contract order', () => {
    expect(validateState({ v: 1, kind: 'x', name: '', phase: 'y' })?.code).toBe('wrong_kind');
    expect(validateState(with_({ phase: 'y', agents: 3 }))?.code).toBe('invalid_phase');
    expect(validateState(with_({ agents: [irAgent('a'), irAgent('a')], topology: 3 }))?.code).toBe('invalid_topology');
  });

  test.each([
    ['body missing', { body: undefined }, { code: 'missing_slot', slot: 'body' }],
    ['body as code', { body: { ref: 'inline:a', kind: 'code' } }, { code: 'slot_type_mismatch', slot: 'body' }],
    ['body without kind', { body: { ref: 'inline:a' } }, { code: 'slot_type_mismatch', slot: 'body' }],
    ['model not object', { model: 'gpt' }, { code: 'invalid_model_slot' }],
    ['model swarmidx', { model: { ref: 'swarmidx:m', kind: 'data' } }, { code: 'slot_type_mismatch', slot: 'model' }],
    [
      'policy model as code',
      { model: { policy: { ref: 'swarmidx:p', kind: 'code' } } },
      { code: 'slot_type_mismatch', slot: 'model.policy' },
    ],
    ['backend swarmidx', { backend: { ref: 'swarmidx:b', kind: 'data' } }, { code: 'slot_type_mismatch', slot: 'backend' }],
    ['backend bad ref', { backend: { ref: 'nope' } }, { code: 'invalid_ref_string', slot: 'backend' }],
    ['overrides not object', { overrides: [] }, { code: 'invalid', field: 'overrides' }],
    ['config not object', { config: 'x' }, { code: 'invalid', field: 'config' }],
  ])('agent: %s', (_label, patch, expected) => {
    const agent = { ...irAgent('a'), ...patch };
    expect(validateState(with_({ agents: [agent] }))).toEqual({ ...expected, agent: 'a' });
  });

  test('accepts a policy model of kind data', () => {
    expect(validateState(with_({ agents: [irAgent('a', { model: { policy: { ref: 'swarmidx:p', kind: 'data' } } })] }))).toBeNull();
  });

  test.each([
    ['handler as data', { handler: { ref: 'handler:h', kind: 'data' } }, { code: 'slot_type_mismatch', slot: 'handler' }],
    ['handler missing', { handler: undefined }, { code: 'missing_slot', slot: 'handler' }],
  ])('object: %s', (_label, patch, expected) => {
    expect(validateState(with_({ objects: [{ ...irObject('o'), ...patch }] }))).toEqual({ ...expected, object: 'o' });
  });

  test.each([['../x'], ['a b'], ['1a']])('refuses the node name %j', (name) => {
    expect(validateState(with_({ agents: [irAgent(name)] }))).toEqual({ code: 'invalid_name', name });
  });

  test('allows cycles', () => {
    expect(
      validateState(
        with_({
          agents: [irAgent('a'), irAgent('b')],
          topology: [
            ['a', 'b'],
            ['b', 'a'],
            ['a', 'a'],
          ],
        }),
      ),
    ).toBeNull();
  });
});
