import fc from 'fast-check';
import { validateConfig } from '../config/validate-config';
import type { SwarmConfig } from '../config/swarm-schema';
import { configToState } from './config-to-state';
import { stateToConfig } from './state-to-config';

const valid = (x: unknown): SwarmConfig => {
  const r = validateConfig(x);
  if (r.kind !== 'ok') throw new Error(JSON.stringify(r.issues));
  return r.config;
};

describe('config ⇄ IR (docs/ir.md)', () => {
  test('maps every field as the contract table says', () => {
    const config = valid({
      name: 's',
      agents: [
        {
          name: 'a',
          model: 'x/y',
          skills: ['/s/k'],
          network: 'none',
          api_key: 'k',
          turn_timeout_ms: 5,
          reply_to: 'o',
          config: { topic: 1 },
        },
        { name: 'b', backend: 'docker' },
        { name: 'c', backend: { type: 'docker', image: 'img:1' } },
        { name: 'd', backend: { type: 'ssh', host: 'u@h' } },
        { name: 'e', backend: { type: 'tmux', runner: 'docker', image: 'i', opts: { q: 1 } }, client: 'codex' },
        { name: 'f', backend: 'mock' },
      ],
      objects: [{ name: 'o', handler: 'recorder', config: { n: 1 } }],
      topology: [['a', 'b'], { from: 'b', to: 'a' }],
    });
    const s = configToState(config);
    expect(s.phase).toBe('desired');
    expect(s.agents[0]).toEqual({
      name: 'a',
      body: { ref: 'inline:a', kind: 'data' },
      model: { ref: 'model:x/y', attested: true },
      backend: { ref: 'bwrap' },
      overrides: { skills: ['/s/k'] },
      config: { topic: 1, api_key: 'k', network: 'none', reply_to: 'o', turn_timeout_ms: 5 },
    });
    expect(s.agents.map((a) => a.backend)).toEqual([
      { ref: 'bwrap' },
      { ref: 'oci:genswarms/agent:latest', kind: 'data' },
      { ref: 'oci:img:1', kind: 'data' },
      { ref: 'ssh', host: 'u@h' },
      { ref: 'tmux', image: 'i', opts: { q: 1, runner: 'docker' } },
      { ref: 'mock' },
    ]);
    expect(s.agents[1]?.model).toEqual({ ref: 'model:default' });
    expect(s.objects).toEqual([{ name: 'o', handler: { ref: 'handler:recorder', kind: 'code' }, config: { n: 1 } }]);
    expect(s.topology).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    const back = stateToConfig(s);
    expect(back.agents[4]).toEqual({ name: 'e', backend: { type: 'tmux', runner: 'docker', image: 'i', opts: { q: 1 } }, client: 'codex' });
    expect(back.agents[1]).toEqual({ name: 'b', backend: 'docker' });
    expect(back.agents[0]?.model).toBe('x/y');
    expect(back.agents[1]?.model).toBeUndefined();
    expect(back.topology).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(validateConfig(back).kind).toBe('ok');
  });

  const nameArb = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
  const backendArb = fc.oneof(
    fc.constantFrom('local', 'bwrap', 'docker', 'mock'),
    fc.record({ type: fc.constant('docker' as const), image: fc.constantFrom('a:1', 'reg/x:2') }),
    fc.record({ type: fc.constant('ssh' as const), host: fc.constant('u@h') }),
    fc.record({ type: fc.constant('mock' as const), opts: fc.record({ delay_ms: fc.nat(100) }) }),
  );
  const agentArb = fc.record(
    {
      backend: backendArb,
      model: fc.constantFrom('x/y', 'gpt'),
      network: fc.constantFrom('open', 'none'),
      turn_timeout_ms: fc.integer({ min: 1, max: 86400000 }),
      unsafe_bypass: fc.boolean(),
      config: fc.record({ topic: fc.string({ maxLength: 5 }) }),
    },
    { requiredKeys: [] },
  );
  const configArb = fc.uniqueArray(nameArb, { minLength: 1, maxLength: 5 }).chain((names) =>
    fc.record({
      name: fc.constant('swarm'),
      agents: fc.tuple(...names.map((n) => agentArb.map((a) => ({ name: n, ...a })))),
      topology: fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)), { maxLength: 6 }),
    }),
  );

  test('config → IR → config → IR is stable and valid', () => {
    fc.assert(
      fc.property(configArb, (raw) => {
        const config = valid(raw);
        const state = configToState(config);
        const back = stateToConfig(state);
        expect(validateConfig(back).kind).toBe('ok');
        expect(configToState(valid(back))).toEqual(state);
      }),
      { numRuns: 200 },
    );
  });
});
