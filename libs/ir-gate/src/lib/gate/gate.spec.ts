import { irAgent } from '../test-support/fixtures';
import type { OverlayEvent } from '../state/types';
import { gateStart } from './gate-start';
import { mapIrErrorToHttp } from './http-map';

const cfg = (agents: unknown[], extra: Record<string, unknown> = {}): unknown => ({ name: 's', agents, ...extra });

describe('gateStart (docs/ir.md, without the runner plan)', () => {
  test('returns the seed, the effective state and config', () => {
    const events: OverlayEvent[] = [{ seq: 1, op: 'add_agent', payload: irAgent('b') as never }];
    const r = gateStart(cfg([{ name: 'a' }]), { overlayEvents: events });
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.seed.agents.map((a) => a.name)).toEqual(['a']);
    expect(r.state.agents.map((a) => a.name)).toEqual(['a', 'b']);
    expect(r.effective.agents.map((a) => a.name)).toEqual(['a', 'b']);
  });

  test('starting from a config ignores the cap (it applies to dynamic mutations only)', () => {
    const agents = Array.from({ length: 5 }, (_, i) => ({ name: `a${i}` }));
    expect(gateStart(cfg(agents, { options: { max_agents: 1 } })).kind).toBe('ok');
  });

  test.each([
    ['schema', cfg([{ name: 'a$(id)' }]), 'validation_failed'],
    ['duplicate', cfg([{ name: 'a' }, { name: 'a' }]), 'validation_failed'],
  ])('refuses at the %s stage with %s and issues', (_label, input, error) => {
    const r = gateStart(input);
    expect(r).toMatchObject({ kind: 'refused', error });
    expect(r.kind === 'refused' && r.issues?.length).toBeGreaterThan(0);
  });

  test('an overlay that no longer applies is ir_validation_failed with the seq', () => {
    const events: OverlayEvent[] = [{ seq: 4, op: 'remove_agent', payload: { name: 'ghost' } }];
    expect(gateStart(cfg([{ name: 'a' }]), { overlayEvents: events })).toMatchObject({
      kind: 'refused',
      error: 'ir_validation_failed',
      issues: [{ code: 'agent_not_found', seq: 4 }],
    });
  });

  test.each([
    ['isolated on tmux', { backend: { type: 'tmux' }, client: 'codex', network: 'isolated' }],
    ['ISOLATED on tmux+bwrap', { backend: { type: 'tmux', runner: 'bwrap' }, client: 'codex', network: 'ISOLATED' }],
    ['isolated on tmux+docker', { backend: { type: 'tmux', runner: 'docker' }, client: 'codex', network: 'isolated' }],
    ['none on local', { backend: 'local', network: 'none' }],
    ['isolated on local', { backend: 'local', network: 'isolated' }],
    ['named on bwrap', { backend: 'bwrap', network: 'my-net' }],
    ['named on tmux+bwrap', { backend: { type: 'tmux', runner: 'bwrap' }, client: 'codex', network: 'my-net' }],
    ['none on ssh', { backend: { type: 'ssh', host: 'u@h' }, network: 'none' }],
    ['none on apple_container', { backend: 'apple_container', network: 'none' }],
  ])('refuses %s as unsupported_network with agent and network', (_label, agent) => {
    const r = gateStart(cfg([{ name: 'x', ...agent }]));
    expect(r).toMatchObject({ kind: 'refused', error: 'unsupported_network', agent: 'x' });
  });

  test.each([
    ['open on local', { backend: 'local' }],
    ['isolated on bwrap', { network: 'isolated' }],
    ['named on docker', { backend: 'docker', network: 'net1' }],
    ['none on tmux+bwrap', { backend: { type: 'tmux', runner: 'bwrap' }, client: 'codex', network: 'none' }],
    ['named on tmux+docker', { backend: { type: 'tmux', runner: 'docker' }, client: 'codex', network: 'n' }],
    ['named on apple_container', { backend: 'apple_container', network: 'n' }],
    ['anything on mock', { backend: 'mock', network: 'isolated' }],
  ])('accepts %s', (_label, agent) => {
    expect(gateStart(cfg([{ name: 'x', ...agent }])).kind).toBe('ok');
  });

  test('checks the network of agents added by the overlay too', () => {
    const events: OverlayEvent[] = [
      { seq: 1, op: 'add_agent', payload: irAgent('b', { backend: { ref: 'local' }, config: { network: 'none' } }) as never },
    ];
    expect(gateStart(cfg([{ name: 'a' }]), { overlayEvents: events })).toMatchObject({ error: 'unsupported_network', agent: 'b' });
  });
});

describe('mapIrErrorToHttp (docs/ir.md)', () => {
  test.each([
    [{ code: 'agent_exists', name: 'a' }, 400, 'already_exists'],
    [{ code: 'object_exists', name: 'o' }, 400, 'already_exists'],
    [{ code: 'agent_not_found', name: 'a' }, 404, 'agent_not_found'],
    [{ code: 'scale_base_not_found', base_name: 'w' }, 404, 'agent_not_found'],
    [{ code: 'object_not_found', name: 'o' }, 404, 'object_not_found'],
    [{ code: 'target_not_found', target: 'o' }, 404, 'object_not_found'],
    [{ code: 'agent_cap_exceeded', count: 4, limit: 3 }, 400, 'agent_cap_exceeded'],
    [{ code: 'forbidden_config_keys', keys: ['extra_path'] }, 400, 'forbidden_config_keys'],
    [{ code: 'unknown_edge_endpoint', endpoint: 'x' }, 400, 'unknown_edge_endpoint'],
    [{ code: 'invalid_count' }, 400, 'invalid_count'],
    [{ code: 'invalid_name', name: 'x' }, 400, 'invalid_name'],
    [{ code: 'slot_type_mismatch', slot: 'body' }, 400, 'ir_validation_failed'],
  ])('%j → %i %s', (error, status, code) => {
    const r = mapIrErrorToHttp(error);
    expect(r.status).toBe(status);
    expect(r.body.error).toBe(code);
    expect(typeof r.body.message).toBe('string');
  });

  test('keeps details and uses 422 for the object config PATCH', () => {
    expect(mapIrErrorToHttp({ code: 'agent_cap_exceeded', count: 4, limit: 3 }).body).toMatchObject({ count: 4, limit: 3 });
    expect(mapIrErrorToHttp({ code: 'forbidden_config_keys', keys: ['a'] }, { objectPatch: true })).toMatchObject({
      status: 422,
      body: { keys: ['a'] },
    });
    expect(mapIrErrorToHttp({ code: 'slot_type_mismatch', slot: 'body' }).body.issues).toEqual([
      { code: 'slot_type_mismatch', slot: 'body' },
    ]);
  });
});
