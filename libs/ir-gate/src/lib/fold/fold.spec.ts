import { ev, irAgent, irObject, irState } from '../test-support/fixtures';
import type { OverlayEvent, SwarmState } from '../state/types';
import { compact, fold, materialize } from './fold';

const two = (): SwarmState => irState([irAgent('a'), irAgent('b')], { objects: [irObject('o')], topology: [['a', 'b']] });
const okState = (r: ReturnType<typeof fold>): SwarmState => {
  if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
  return r.state;
};

describe('fold (docs/ir.md)', () => {
  test('adds agents and objects', () => {
    const s = okState(fold(two(), [ev('add_agent', irAgent('c') as never), ev('add_object', irObject('p') as never)]));
    expect(s.agents.map((a) => a.name)).toEqual(['a', 'b', 'c']);
    expect(s.objects.map((o) => o.name)).toEqual(['o', 'p']);
  });

  test.each([
    ['add_agent', irAgent('a'), 'agent_exists'],
    ['add_agent', irAgent('o'), 'agent_exists'],
    ['add_object', irObject('a'), 'object_exists'],
    ['remove_agent', { name: 'zz' }, 'agent_not_found'],
    ['remove_agent', { name: 'o' }, 'agent_not_found'],
    ['remove_object', { name: 'a' }, 'object_not_found'],
    ['add_topology_edges', { edges: [['a', 'zz']] }, 'unknown_edge_endpoint'],
    ['update_config', { target: 'zz', config: {} }, 'target_not_found'],
    ['bump_package', { target: 'zz', field: 'body', from: 'sha256:01', to: 'sha256:02' }, 'target_not_found'],
    ['bump_package', { target: 'a', field: 'handler', from: 'sha256:01', to: 'sha256:02' }, 'invalid_bump_field'],
    ['bump_package', { target: 'o', field: 'body', from: 'sha256:01', to: 'sha256:02' }, 'invalid_bump_field'],
    ['bump_package', { target: 'a', field: 'body', from: 'sha256:01', to: 'sha256:02' }, 'bump_digest_mismatch'],
    ['scale_agent_group', { base_name: 'zz', target_count: 2 }, 'scale_base_not_found'],
  ])('%s %j fails with %s and no partial state', (op, payload, code) => {
    const seed = two();
    const before = JSON.stringify(seed);
    const r = fold(seed, [ev('set_options', { options: { x: 1 } }, 1), ev(op as OverlayEvent['op'], payload as never, 2)]);
    expect(r).toMatchObject({ kind: 'error', seq: 2, error: { code } });
    expect(JSON.stringify(seed)).toBe(before);
  });

  test('removing a node removes its edges', () => {
    const s = okState(
      fold(two(), [
        ev('add_topology_edges', {
          edges: [
            ['o', 'a'],
            ['b', 'o'],
          ],
        }),
        ev('remove_object', { name: 'o' }),
      ]),
    );
    expect(s.topology).toEqual([['a', 'b']]);
    const s2 = okState(fold(two(), [ev('remove_agent', { name: 'b' })]));
    expect(s2.topology).toEqual([]);
  });

  test('adds only missing edges and ignores absent removals', () => {
    const s = okState(
      fold(two(), [
        ev('add_topology_edges', {
          edges: [
            ['a', 'b'],
            ['b', 'a'],
            ['b', 'a'],
          ],
        }),
        ev('remove_topology_edges', {
          edges: [
            ['o', 'o'],
            ['a', 'b'],
          ],
        }),
      ]),
    );
    expect(s.topology).toEqual([['b', 'a']]);
  });

  test('set_options and update_config merge shallowly', () => {
    const seed = irState([irAgent('a', { config: { k: 1, n: { x: 1 } } })], { options: { max_agents: 5, y: 1 } });
    const s = okState(
      fold(seed, [ev('set_options', { options: { max_agents: 7 } }), ev('update_config', { target: 'a', config: { n: { z: 2 } } })]),
    );
    expect(s.options).toEqual({ max_agents: 7, y: 1 });
    expect(s.agents[0]?.config).toEqual({ k: 1, n: { z: 2 } });
  });

  test('bump_package replaces the digest when it matches from', () => {
    const seed = irState([
      irAgent('a', {
        body: { ref: 'swarmidx:pkg', kind: 'data', digest: 'sha256:01' },
        model: { policy: { ref: 'swarmidx:p', kind: 'data', digest: 'sha256:aa' } },
      }),
    ]);
    const s = okState(
      fold(seed, [
        ev('bump_package', { target: 'a', field: 'body', from: 'sha256:01', to: 'sha256:02' }),
        ev('bump_package', { target: 'a', field: 'model', from: 'sha256:aa', to: 'sha256:bb' }),
      ]),
    );
    expect(s.agents[0]?.body.digest).toBe('sha256:02');
    expect(s.agents[0]?.model).toEqual({ policy: { ref: 'swarmidx:p', kind: 'data', digest: 'sha256:bb' } });
    const r = fold(seed, [ev('bump_package', { target: 'a', field: 'body', from: 'sha256:ff', to: 'sha256:02' }, 9)]);
    expect(r).toEqual({ kind: 'error', seq: 9, error: { code: 'bump_digest_mismatch', expected: 'sha256:ff', got: 'sha256:01' } });
  });

  test('refuses an invalid seed, invalid events and non-monotonic seqs', () => {
    expect(fold({ ...two(), v: 2 } as unknown as SwarmState, [])).toMatchObject({
      kind: 'error',
      seq: null,
      error: { code: 'unsupported_version' },
    });
    expect(fold(two(), [{ seq: 1, op: 'nuke', payload: {} } as unknown as OverlayEvent])).toMatchObject({ error: { code: 'unknown_op' } });
    const r = fold(two(), [ev('set_options', { options: {} }, 5), ev('set_options', { options: {} }, 5)]);
    expect(r).toMatchObject({ kind: 'error', seq: 5, error: { code: 'non_monotonic_seq', prev: 5 } });
  });

  test('never mutates its inputs', () => {
    const seed = two();
    const events = [ev('add_agent', irAgent('c') as never), ev('update_config', { target: 'a', config: { q: 1 } })];
    const snapshot = JSON.stringify([seed, events]);
    okState(fold(seed, events));
    expect(JSON.stringify([seed, events])).toBe(snapshot);
  });
});

describe('materialize and compact', () => {
  const overlay = (events: OverlayEvent[]): Record<string, unknown> => ({ v: 1, kind: 'swarm.overlay', swarm: 's', events });

  test('materialize accepts an overlay document or its events', () => {
    const events = [ev('add_agent', irAgent('c') as never, 1)];
    const viaDoc = materialize(two(), overlay(events) as never);
    expect(viaDoc).toEqual(materialize(two(), events));
    expect(materialize(two(), { ...overlay(events), kind: 'x' } as never)).toMatchObject({
      kind: 'error',
      seq: null,
      error: { code: 'wrong_kind' },
    });
  });

  test('compact splits at seq and keeps the result', () => {
    const events = [
      ev('add_agent', irAgent('c') as never, 1),
      ev('add_topology_edges', { edges: [['c', 'a']] }, 2),
      ev('remove_agent', { name: 'b' }, 3),
    ];
    const c = compact(two(), events, 2);
    if (c.kind !== 'ok') throw new Error('compact failed');
    expect(c.remaining.map((e) => e.seq)).toEqual([3]);
    expect(okState(fold(c.checkpoint, c.remaining))).toEqual(okState(fold(two(), events)));
  });
});
