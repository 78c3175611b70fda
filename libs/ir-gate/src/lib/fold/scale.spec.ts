import { ev, irAgent, irObject, irState } from '../test-support/fixtures';
import type { SwarmState } from '../state/types';
import { fold } from './fold';
import { scaledInstanceNames } from './scale';

const scale = (s: SwarmState, base: string, n: number): SwarmState => {
  const r = fold(s, [ev('scale_agent_group', { base_name: base, target_count: n })]);
  if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
  return r.state;
};

describe('scale_agent_group (docs/ir.md)', () => {
  test('scaledInstanceNames gives base_1..base_n', () => {
    expect(scaledInstanceNames('w', 3)).toEqual(['w_1', 'w_2', 'w_3']);
    expect(scaledInstanceNames('w', 0)).toEqual([]);
    expect(() => scaledInstanceNames('w', -1)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  test('base → N instances copied from base, base removed, edges fanned out', () => {
    const seed = irState([irAgent('w', { config: { k: 1 } }), irAgent('boss')], {
      topology: [
        ['boss', 'w'],
        ['w', 'boss'],
        ['w', 'w'],
      ],
    });
    const s = scale(seed, 'w', 2);
    expect(s.agents.map((a) => a.name)).toEqual(['w_1', 'w_2', 'boss']);
    expect(s.agents[0]).toEqual({ ...irAgent('w', { config: { k: 1 } }), name: 'w_1' });
    expect(s.topology).toEqual([
      ['boss', 'w_1'],
      ['boss', 'w_2'],
      ['w_1', 'boss'],
      ['w_2', 'boss'],
      ['w_1', 'w_1'],
      ['w_2', 'w_2'],
    ]);
  });

  test('keeps existing instances unchanged and drops higher ones', () => {
    const seed = irState([irAgent('w_1', { config: { keep: 1 } }), irAgent('w_3', { config: { t: 3 } }), irAgent('x')], {
      topology: [['w_3', 'x']],
    });
    const s = scale(seed, 'w', 2);
    expect(s.agents.map((a) => [a.name, a.config])).toEqual([
      ['w_1', { keep: 1 }],
      ['w_2', { keep: 1 }],
      ['x', {}],
    ]);
    expect(s.topology).toEqual([
      ['w_1', 'x'],
      ['w_2', 'x'],
    ]);
  });

  test('template is the lowest-numbered member (numerically) when base is absent', () => {
    const seed = irState([irAgent('w_10', { config: { n: 10 } }), irAgent('w_9', { config: { n: 9 } })]);
    expect(scale(seed, 'w', 1).agents).toEqual([{ ...irAgent('w_9', { config: { n: 9 } }), name: 'w_1' }]);
  });

  test('N = 0 removes the group and its edges', () => {
    const seed = irState([irAgent('w'), irAgent('w_2'), irAgent('x')], {
      topology: [
        ['x', 'w'],
        ['w_2', 'x'],
        ['x', 'x'],
      ],
    });
    const s = scale(seed, 'w', 0);
    expect(s.agents.map((a) => a.name)).toEqual(['x']);
    expect(s.topology).toEqual([['x', 'x']]);
  });

  test.each([['w_0'], ['w_01'], ['w_1a'], ['w_'], ['ww_1']])('%s is not a member of group w', (name) => {
    const seed = irState([irAgent('w'), irAgent(name)]);
    expect(scale(seed, 'w', 1).agents.map((a) => a.name)).toEqual(['w_1', name]);
  });

  test('refuses an instance name held by an object', () => {
    const seed = irState([irAgent('w')], { objects: [irObject('w_2')] });
    expect(fold(seed, [ev('scale_agent_group', { base_name: 'w', target_count: 2 }, 1)])).toMatchObject({
      kind: 'error',
      error: { code: 'object_exists', name: 'w_2' },
    });
  });

  test('refuses instance names longer than 64 chars', () => {
    const base = `w${'x'.repeat(61)}`;
    const r = fold(irState([irAgent(base)]), [ev('scale_agent_group', { base_name: base, target_count: 10 }, 1)]);
    expect(r).toMatchObject({ kind: 'error', error: { code: 'invalid_name' } });
  });

  test('scaling twice is idempotent', () => {
    const seed = irState([irAgent('w'), irAgent('x')], { topology: [['w', 'x']] });
    const once = scale(seed, 'w', 3);
    expect(scale(once, 'w', 3)).toEqual(once);
  });
});
