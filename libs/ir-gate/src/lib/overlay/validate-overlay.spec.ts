import { irAgent, irObject } from '../test-support/fixtures';
import { validateEvent, validateOverlay } from './validate-overlay';

const overlay = (patch: Record<string, unknown> = {}): Record<string, unknown> => ({
  v: 1,
  kind: 'swarm.overlay',
  swarm: 's',
  apply: 'incremental',
  events: [],
  ...patch,
});
const e = (op: string, payload: unknown, seq = 1): unknown => ({ seq, op, payload });

describe('validateOverlay (docs/ir.md)', () => {
  test('accepts an empty overlay, apply defaulting to incremental', () => {
    expect(validateOverlay(overlay())).toBeNull();
    expect(validateOverlay(overlay({ apply: undefined }))).toBeNull();
    expect(validateOverlay(overlay({ apply: 'transactional' }))).toBeNull();
  });

  test.each([
    ['v', overlay({ v: 0 }), 'unsupported_version'],
    ['kind', overlay({ kind: 'swarm.state' }), 'wrong_kind'],
    ['swarm', overlay({ swarm: '' }), 'missing'],
    ['apply', overlay({ apply: 'eventual' }), 'invalid_apply_mode'],
    ['events missing', overlay({ events: undefined }), 'missing_events'],
    ['events not array', overlay({ events: {} }), 'missing_events'],
    ['non-object event', overlay({ events: [1] }), 'invalid_event'],
    ['string seq', overlay({ events: [e('set_options', { options: {} }, '1' as unknown as number)] }), 'invalid_seq'],
    ['float seq', overlay({ events: [e('set_options', { options: {} }, 1.5)] }), 'invalid_seq'],
    ['unknown op', overlay({ events: [e('drop_table', {})] }), 'unknown_op'],
    ['payload not object', overlay({ events: [e('set_options', [])] }), 'invalid_payload'],
  ])('envelope/event: %s → %s', (_label, x, code) => {
    expect(validateOverlay(x)?.code).toBe(code);
  });

  test.each([[[2, 1]], [[1, 1]], [[1, 3, 2]]])('refuses non-monotonic seqs %j', (seqs) => {
    const events = seqs.map((s) => e('set_options', { options: {} }, s));
    const err = validateOverlay(overlay({ events }));
    expect(err?.code).toBe('non_monotonic_seq');
    expect(err).toHaveProperty('prev');
  });

  test('accepts gaps and negative starting seqs if ascending', () => {
    const events = [-5, 0, 7, 100].map((s) => e('set_options', { options: {} }, s));
    expect(validateOverlay(overlay({ events }))).toBeNull();
  });

  test.each([
    ['add_agent', irAgent('a'), null],
    ['add_agent', { name: 'a' }, 'missing_slot'],
    ['add_object', irObject('o'), null],
    ['add_object', { ...irObject('o'), handler: { ref: 'handler:h', kind: 'data' } }, 'slot_type_mismatch'],
    ['remove_agent', { name: 'a' }, null],
    ['remove_agent', {}, 'missing_field'],
    ['remove_object', { name: 'o', on_inflight: 'kill' }, null],
    ['remove_object', { name: 'o', on_inflight: 'explode' }, 'invalid_policy'],
    ['add_topology_edges', { edges: [['a', 'b']] }, null],
    ['add_topology_edges', {}, 'missing_edges'],
    ['add_topology_edges', { edges: [{ from: 'a', to: 'b' }] }, 'invalid_edges'],
    ['remove_topology_edges', { edges: [['a', 'b', 'c']] }, 'invalid_edges'],
    ['scale_agent_group', { base_name: 'w', target_count: 0 }, null],
    ['scale_agent_group', { base_name: 'w', target_count: -1 }, 'invalid_count'],
    ['scale_agent_group', { base_name: 'w', target_count: 1.5 }, 'invalid_count'],
    ['scale_agent_group', { base_name: 'w', target_count: '3' }, 'invalid_count'],
    ['scale_agent_group', { base_name: 'w', target_count: 100001 }, 'invalid_count'],
    ['scale_agent_group', { base_name: 'w' }, 'invalid_count'],
    ['scale_agent_group', { target_count: 1 }, 'missing_field'],
    ['scale_agent_group', { base_name: 'w', target_count: 1, on_inflight: 'x' }, 'invalid_policy'],
    ['bump_package', { target: 'a', field: 'body', from: 'sha256:01', to: 'sha256:02' }, null],
    ['bump_package', { target: 'a', field: 'name', from: 'sha256:01', to: 'sha256:02' }, 'invalid_bump_field'],
    ['bump_package', { target: 'a', field: 'body', from: 'md5', to: 'sha256:02' }, 'invalid_digest'],
    ['bump_package', { target: 'a', field: 'body', from: 'sha256:01', to: 'sha256:02', migration: 'x' }, 'invalid_policy'],
    ['set_options', { options: { max_agents: 3 } }, null],
    ['set_options', { options: 3 }, 'missing_field'],
    ['update_config', { target: 'o', config: { a: 1 } }, null],
    ['update_config', { target: 'o' }, 'missing_field'],
    ['update_config', { config: {} }, 'missing_field'],
  ])('%s payload %j → %s', (op, payload, code) => {
    expect(validateEvent(e(op, payload))?.code ?? null).toBe(code);
  });

  test('invalid_digest names the key', () => {
    expect(validateEvent(e('bump_package', { target: 'a', field: 'body', from: 'sha256:01', to: 'x' }))).toEqual({
      code: 'invalid_digest',
      key: 'to',
    });
  });
});
