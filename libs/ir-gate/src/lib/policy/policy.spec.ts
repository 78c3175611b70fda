import { irAgent, irObject, irState } from '../test-support/fixtures';
import type { OverlayEvent, SwarmState } from '../state/types';
import { applyOp, applyOverlay } from './apply-op';
import { HOST_ESCAPE_KEYS } from './policy';

const agents = (n: number, prefix = 'a'): ReturnType<typeof irAgent>[] => Array.from({ length: n }, (_, i) => irAgent(`${prefix}${i}`));
const e = (op: OverlayEvent['op'], payload: Record<string, unknown>, seq = 1): OverlayEvent => ({ seq, op, payload });

describe('op policy (docs/ir.md)', () => {
  test('add_agent exactly at the cap is accepted, one more is refused', () => {
    const s = irState(agents(2), { options: { max_agents: 3 }, objects: [irObject('o1'), irObject('o2')] });
    const r = applyOp(s, e('add_agent', irAgent('n') as never));
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(applyOp(r.state, e('add_agent', irAgent('m') as never, 2))).toEqual({
      kind: 'error',
      seq: 2,
      error: { code: 'agent_cap_exceeded', count: 4, limit: 3 },
    });
  });

  test('cap order: options.max_agents, then the server value, then 100', () => {
    expect(applyOp(irState(agents(1)), e('add_agent', irAgent('n') as never), { maxAgents: 1 })).toMatchObject({ error: { limit: 1 } });
    expect(applyOp(irState(agents(1), { options: { max_agents: 5 } }), e('add_agent', irAgent('n') as never), { maxAgents: 1 }).kind).toBe(
      'ok',
    );
    expect(applyOp(irState(agents(100)), e('add_agent', irAgent('n') as never))).toMatchObject({
      error: { code: 'agent_cap_exceeded', limit: 100 },
    });
  });

  test('scale counts agents outside the group', () => {
    const s = irState([...agents(3, 'x'), irAgent('w'), irAgent('w_1')], { options: { max_agents: 5 } });
    expect(applyOp(s, e('scale_agent_group', { base_name: 'w', target_count: 2 })).kind).toBe('ok');
    expect(applyOp(s, e('scale_agent_group', { base_name: 'w', target_count: 3 }))).toMatchObject({
      error: { code: 'agent_cap_exceeded', count: 6, limit: 5 },
    });
  });

  test('the cap is checked before forbidden keys', () => {
    const s = irState(agents(1), { options: { max_agents: 1 } });
    const r = applyOp(s, e('add_agent', irAgent('n', { config: { extra_path: ['/x'] } }) as never));
    expect(r).toMatchObject({ error: { code: 'agent_cap_exceeded' } });
  });

  const places: Array<[string, (k: string) => Record<string, unknown>]> = [
    ['top level', (k) => ({ ...irAgent('n'), [k]: ['/x'] })],
    ['config', (k) => irAgent('n', { config: { [k]: ['/x'] } }) as never],
    ['backend.opts', (k) => irAgent('n', { backend: { ref: 'bwrap', opts: { [k]: ['/x'] } } }) as never],
    ['IR overrides', (k) => ({ ...irAgent('n'), overrides: { [k]: ['/x'] } })],
  ];

  test('skills are a host-escape key: a mutation could bind any readable host path as a skill', () => {
    expect(HOST_ESCAPE_KEYS).toContain('skills');
    const payload = { ...irAgent('n'), overrides: { skills: ['/home/x/.genswarms/tmux'] } };
    expect(applyOp(irState([]), e('add_agent', payload))).toEqual({
      kind: 'error',
      seq: 1,
      error: { code: 'forbidden_config_keys', keys: ['skills'] },
    });
  });
  const cases = HOST_ESCAPE_KEYS.flatMap((k) => places.map(([where, make]) => [k, where, make] as const));

  test.each(cases)('add_agent refuses %s at %s', (key, _where, make) => {
    expect(applyOp(irState(agents(1)), e('add_agent', make(key)))).toEqual({
      kind: 'error',
      seq: 1,
      error: { code: 'forbidden_config_keys', keys: [key] },
    });
  });

  test('reports all keys from the three places sorted and unique', () => {
    const payload = {
      ...irAgent('n', {
        config: { extra_path: [], agent_binary_path: '/x' },
        backend: { ref: 'bwrap', opts: { extra_rw_binds: [], extra_path: [] } },
      }),
      extra_ro_binds: [],
    };
    expect(applyOp(irState([]), e('add_agent', payload as never))).toMatchObject({
      error: { code: 'forbidden_config_keys', keys: ['agent_binary_path', 'extra_path', 'extra_ro_binds', 'extra_rw_binds'] },
    });
  });

  test.each(HOST_ESCAPE_KEYS.map((k) => [k]))('update_config refuses %s at the patch top level', (key) => {
    const s = irState([], { objects: [irObject('o')] });
    expect(applyOp(s, e('update_config', { target: 'o', config: { [key]: 1, ok: 2 } }))).toMatchObject({
      error: { code: 'forbidden_config_keys', keys: [key] },
    });
  });

  test('update_config with all keys reports them sorted; nested ones are not top level', () => {
    const config = Object.fromEntries([...HOST_ESCAPE_KEYS].reverse().map((k) => [k, 1]));
    const s = irState([], { objects: [irObject('o')] });
    expect(applyOp(s, e('update_config', { target: 'o', config }))).toMatchObject({ error: { keys: [...HOST_ESCAPE_KEYS].sort() } });
    expect(applyOp(s, e('update_config', { target: 'o', config: { nested: { extra_path: 1 } } })).kind).toBe('ok');
  });

  test('other ops pass regardless of state size', () => {
    const s = irState(agents(150), { options: { max_agents: 1 } });
    expect(applyOp(s, e('add_object', irObject('o') as never)).kind).toBe('ok');
    expect(applyOp(s, e('remove_agent', { name: 'a0' })).kind).toBe('ok');
    expect(applyOp(s, e('set_options', { options: { k: 1 } })).kind).toBe('ok');
  });

  test('applyOverlay stops at the first refusal and changes nothing', () => {
    const s: SwarmState = irState(agents(1), { options: { max_agents: 2 } });
    const before = JSON.stringify(s);
    const r = applyOverlay(s, [
      e('add_agent', irAgent('n') as never, 1),
      e('add_agent', irAgent('m') as never, 2),
      e('remove_agent', { name: 'a0' }, 3),
    ]);
    expect(r).toMatchObject({ kind: 'error', seq: 2, error: { code: 'agent_cap_exceeded' } });
    expect(JSON.stringify(s)).toBe(before);
    expect(applyOverlay(s, [e('set_options', {}, 2), e('set_options', { options: {} }, 1)])).toMatchObject({ kind: 'error' });
  });
});
