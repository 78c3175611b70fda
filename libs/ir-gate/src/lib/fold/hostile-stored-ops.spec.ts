/**
 * A stored overlay op is untrusted: a row of an older database (an op renamed since, a payload stored as a
 * string) or a tampered one. fold parses it into the typed op union and refuses anything off it with a
 * code; nothing is cast into shape, the stored row is never mutated, and the op policy passes it to fold.
 */
import { checkOpPolicy } from '../policy/policy';
import { parseOverlayEvent } from '../overlay/validate-overlay';
import type { OverlayEvent, SwarmState } from '../state/types';
import { irAgent, irObject, irState } from '../test-support/fixtures';
import { fold, materialize } from './fold';

const seed = (): SwarmState => irState([irAgent('a'), irAgent('b')], { objects: [irObject('o')], topology: [['a', 'b']] });
const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

/** What a store hands back: `JSON.parse` of the payload column, the op column as text. */
const stored = (op: unknown, payload: unknown, seq: unknown = 1): OverlayEvent => JSON.parse(JSON.stringify({ seq, op, payload }));

const HOSTILE: ReadonlyArray<readonly [what: string, event: OverlayEvent, code: string]> = [
  // older databases
  ['an op renamed since (add_node)', stored('add_node', irAgent('c')), 'unknown_op'],
  ['an op in another case', stored('ADD_AGENT', irAgent('c')), 'unknown_op'],
  ['an op with a trailing space', stored('add_agent ', irAgent('c')), 'unknown_op'],
  ['a payload stored as a JSON string', stored('set_options', JSON.stringify({ options: { x: 1 } })), 'invalid_payload'],
  ['a null payload', stored('remove_agent', null), 'invalid_payload'],
  ['an array payload', stored('add_topology_edges', [['a', 'b']]), 'invalid_payload'],
  ['a seq stored as text', stored('remove_agent', { name: 'a' }, '1'), 'invalid_seq'],
  ['a fractional seq', stored('remove_agent', { name: 'a' }, 1.5), 'invalid_seq'],
  ['a seq past 2^53', stored('remove_agent', { name: 'a' }, 2 ** 53), 'invalid_seq'],
  // tampered rows: prototype names as ops
  ['op __proto__', stored('__proto__', {}), 'unknown_op'],
  ['op constructor', stored('constructor', {}), 'unknown_op'],
  ['op toString', stored('toString', {}), 'unknown_op'],
  ['a numeric op', stored(7, {}), 'unknown_op'],
  // tampered rows: payloads off their op's shape
  ['add_agent without a body', stored('add_agent', { name: 'c', model: { ref: 'model:x' }, backend: { ref: 'bwrap' } }), 'missing_slot'],
  ['add_agent with a code body', stored('add_agent', irAgent('c', { body: { ref: 'inline:c', kind: 'code' } })), 'slot_type_mismatch'],
  ['add_agent with a path name', stored('add_agent', irAgent('../c')), 'invalid_name'],
  [
    'add_object with a data handler',
    stored('add_object', { name: 'p', handler: { ref: 'handler:x', kind: 'data' } }),
    'slot_type_mismatch',
  ],
  ['remove_agent with a numeric name', stored('remove_agent', { name: 1 }), 'missing_field'],
  ['remove_agent with an empty name', stored('remove_agent', { name: '' }), 'missing_field'],
  ['remove_object with an unknown on_inflight', stored('remove_object', { name: 'o', on_inflight: 'explode' }), 'invalid_policy'],
  ['edges as an object', stored('add_topology_edges', { edges: { a: 'b' } }), 'missing_edges'],
  ['a three-element edge', stored('add_topology_edges', { edges: [['a', 'b', 'c']] }), 'invalid_edges'],
  ['an edge of numbers', stored('remove_topology_edges', { edges: [[1, 2]] }), 'invalid_edges'],
  ['a scale count as text', stored('scale_agent_group', { base_name: 'a', target_count: '3' }), 'invalid_count'],
  ['a negative scale count', stored('scale_agent_group', { base_name: 'a', target_count: -1 }), 'invalid_count'],
  ['a scale count past the cap', stored('scale_agent_group', { base_name: 'a', target_count: 100001 }), 'invalid_count'],
  ['a bump of an unknown slot', stored('bump_package', { target: 'a', field: '__proto__', from: D1, to: D2 }), 'invalid_bump_field'],
  ['a bump to a non-digest', stored('bump_package', { target: 'a', field: 'body', from: D1, to: 'latest' }), 'invalid_digest'],
  [
    'a bump with an unknown migration',
    stored('bump_package', { target: 'a', field: 'body', from: D1, to: D2, migration: 'yolo' }),
    'invalid_policy',
  ],
  ['set_options with an array', stored('set_options', { options: [1, 2] }), 'missing_field'],
  ['set_options with no options', stored('set_options', { option: {} }), 'missing_field'],
  ['update_config with a string config', stored('update_config', { target: 'a', config: 'x=1' }), 'missing_field'],
  ['update_config without a target', stored('update_config', { config: {} }), 'missing_field'],
];

describe('fold refuses a malformed stored op with its code', () => {
  test.each(HOSTILE)('%s → %s', (_what, event, code) => {
    const state = seed();
    const before = JSON.stringify([state, event]);
    expect(parseOverlayEvent(event)).toEqual({ kind: 'invalid', error: expect.objectContaining({ code }) });
    expect(fold(state, [event])).toMatchObject({ kind: 'error', error: { code } });
    expect(materialize(state, [event])).toMatchObject({ kind: 'error', error: { code } });
    expect(JSON.stringify([state, event])).toBe(before);
  });

  // The policy runs first (a refusal outranks a payload error): it answers a refusal of its own or null, never undefined.
  test.each(HOSTILE)('the op policy answers null or its own code for %s', (_what, event) => {
    const refusal = checkOpPolicy(seed(), event);
    expect(refusal === null || ['agent_cap_exceeded', 'forbidden_config_keys'].includes(refusal.code)).toBe(true);
  });

  test('a bad row after good ones refuses the whole fold at its seq', () => {
    const events = [stored('remove_agent', { name: 'b' }, 1), stored('add_topology_edges', { edges: [['a', 'o', 'x']] }, 2)];
    expect(fold(seed(), events)).toEqual({ kind: 'error', seq: 2, error: { code: 'invalid_edges', index: 1 } });
  });
});

describe('a stored op that parses is typed by its op, with copies of what fold reads', () => {
  test('extra keys of a stored payload are left behind', () => {
    const event = stored('set_options', { options: { x: 1 }, drop_tables: true });
    expect(parseOverlayEvent(event)).toEqual({ kind: 'ok', event: { seq: 1, op: 'set_options', payload: { options: { x: 1 } } } });
  });

  test('a stored edge list is copied, not aliased', () => {
    const event = stored('add_topology_edges', { edges: [['b', 'a']] });
    const parsed = parseOverlayEvent(event);
    if (parsed.kind !== 'ok' || parsed.event.op !== 'add_topology_edges') throw new Error(JSON.stringify(parsed));
    expect(parsed.event.payload.edges).toEqual([['b', 'a']]);
    expect(parsed.event.payload.edges).not.toBe((event.payload as { edges: unknown }).edges);
  });

  test('a bump keeps its optional policy fields and re-pins the slot', () => {
    const state = irState([irAgent('a', { body: { ref: 'inline:a', kind: 'data', digest: D1 } })]);
    const event = stored('bump_package', { target: 'a', field: 'body', from: D1, to: D2, migration: 'restart', on_inflight: 'drain' });
    expect(parseOverlayEvent(event)).toMatchObject({ kind: 'ok', event: { payload: { migration: 'restart', on_inflight: 'drain' } } });
    const r = fold(state, [event]);
    expect(r.kind === 'ok' ? r.state.agents[0]?.body.digest : r).toBe(D2);
  });
});
