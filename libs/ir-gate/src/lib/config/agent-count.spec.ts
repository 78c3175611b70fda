import type { configToState } from '../convert/config-to-state';
import { fold } from '../fold/fold';
import { ev } from '../test-support/fixtures';
import { expandAgentCounts } from './agent-count';
import { AgentSchema } from './agent-schema';
import { CONFIG_MAX_BYTES } from './limits';
import { validateConfig } from './validate-config';

type Json = Record<string, unknown>;

const worker = { backend: 'bwrap', network: 'none', model: 'm', config: { env: { K: 'v' } } };

/** The compact form and the same swarm written out by hand. */
const COMPACT: Json = {
  name: 's',
  agents: [{ name: 'boss' }, { name: 'w', count: 3, ...worker, reply_to: 'log' }, { name: 'tail' }],
  objects: [{ name: 'log', handler: 'collector' }],
  topology: [['boss', 'w'], { from: 'w', to: 'log' }, ['boss', 'tail']],
  options: { max_agents: 10 },
};
const WRITTEN: Json = {
  name: 's',
  agents: [
    { name: 'boss' },
    { name: 'w_1', ...worker, reply_to: 'log' },
    { name: 'w_2', ...worker, reply_to: 'log' },
    { name: 'w_3', ...worker, reply_to: 'log' },
    { name: 'tail' },
  ],
  objects: [{ name: 'log', handler: 'collector' }],
  topology: [
    ['boss', 'w_1'],
    ['boss', 'w_2'],
    ['boss', 'w_3'],
    ['w_1', 'log'],
    ['w_2', 'log'],
    ['w_3', 'log'],
    ['boss', 'tail'],
  ],
  options: { max_agents: 10 },
};

function okState(input: unknown): ReturnType<typeof configToState> {
  const r = validateConfig(input);
  if (r.kind !== 'ok') throw new Error(JSON.stringify(r.issues));
  return r.state;
}

function issuesOf(input: unknown): Array<{ path: string; message: string }> {
  const r = validateConfig(input);
  return r.kind === 'ok' ? [] : (r.issues as Array<{ path: string; message: string }>);
}

describe('an agent entry with count', () => {
  test('gives the IR of its instances written out, edges fanned to every instance', () => {
    expect(okState(COMPACT)).toEqual(okState(WRITTEN));
  });

  test('names and wires its instances as scale_agent_group does: declaring w × 3 equals scaling w to 3', () => {
    const one = okState({ ...COMPACT, agents: [{ name: 'boss' }, { name: 'w', ...worker, reply_to: 'log' }, { name: 'tail' }] });
    const scaled = fold(one, [ev('scale_agent_group', { base_name: 'w', target_count: 3 })]);
    if (scaled.kind !== 'ok') throw new Error(JSON.stringify(scaled));
    // a scaled copy keeps its template's body ref (`inline:w`); everything else agrees
    const withoutBody = (s: typeof scaled.state): unknown => ({ ...s, agents: s.agents.map(({ body: _b, ...a }) => a) });
    expect(withoutBody(scaled.state)).toEqual(withoutBody(okState(COMPACT)));
  });

  test('keeps the config as given (compact) and summarises the instances', () => {
    const r = validateConfig(COMPACT);
    if (r.kind !== 'ok') throw new Error('invalid');
    expect(r.config.agents[1]).toMatchObject({ name: 'w', count: 3 });
    expect(r.summary).toMatchObject({ agent_count: 5, edge_count: 7, agents: ['boss', 'w_1', 'w_2', 'w_3', 'tail'] });
  });

  test('may take a git workspace: each instance gets its own clone of the repository', () => {
    const r = validateConfig({ name: 'g', agents: [{ name: 'w', count: 2, workspace: { git: '/srv/repo', ref: 'main' } }] });
    if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
    expect(
      okState({ name: 'g', agents: [{ name: 'w', count: 2, workspace: { git: '/srv/repo', ref: 'main' } }] }).agents.map((a) => a.name),
    ).toEqual(['w_1', 'w_2']);
  });

  test('declares 10,000 agents in a few hundred bytes, far under the body limit', () => {
    const config = { name: 'big', agents: [{ name: 'w', count: 10000, ...worker }, { name: 'boss' }], topology: [['boss', 'w']] };
    expect(JSON.stringify(config).length).toBeLessThan(CONFIG_MAX_BYTES / 1000);
    const state = okState(config);
    expect(state.agents.map((a) => a.name).slice(-2)).toEqual(['w_10000', 'boss']);
    expect(state.topology).toHaveLength(10000);
  });

  test('count 1 is w_1 and no count is the agent itself', () => {
    expect(okState({ name: 's', agents: [{ name: 'w', count: 1 }] }).agents.map((a) => a.name)).toEqual(['w_1']);
    expect(expandAgentCounts({ name: 's', agents: [{ name: 'w' }] })).toEqual({ name: 's', agents: [{ name: 'w' }] });
  });

  const long = 'a'.repeat(58);
  test.each<[string, Json, string, RegExp]>([
    ['count 0', { agents: [{ name: 'w', count: 0 }] }, 'agents.0.count', /./],
    ['a negative count', { agents: [{ name: 'w', count: -1 }] }, 'agents.0.count', /./],
    ['a fractional count', { agents: [{ name: 'w', count: 1.5 }] }, 'agents.0.count', /./],
    ['a string count', { agents: [{ name: 'w', count: '3' }] }, 'agents.0.count', /./],
    ['a count over the cap', { agents: [{ name: 'w', count: 100001 }] }, 'agents.0.count', /./],
    [
      'counts summing over the cap',
      {
        agents: [
          { name: 'v', count: 60000 },
          { name: 'w', count: 60000 },
        ],
      },
      'agents',
      /more than 100000/,
    ],
    ['instance names over 64 chars', { agents: [{ name: long, count: 100000 }] }, 'agents.0.count', /max 64/],
    ['a shared workspace', { agents: [{ name: 'w', count: 2, workspace: '/srv/w' }] }, 'agents.0.workspace', /own default workspace/],
    ['an agent named like an instance', { agents: [{ name: 'w', count: 3 }, { name: 'w_2' }] }, 'agents.1.name', /unique/],
    [
      'an object named like the entry',
      { agents: [{ name: 'w', count: 3 }], objects: [{ name: 'w', handler: 'h' }] },
      'objects.0.name',
      /unique/,
    ],
    [
      'an entry named like another’s instance',
      {
        agents: [
          { name: 'w', count: 2 },
          { name: 'w_1', count: 2 },
        ],
      },
      'agents.1.name',
      /unique/,
    ],
    [
      'an edge to one instance',
      { agents: [{ name: 'w', count: 3 }, { name: 'b' }], topology: [['b', 'w_2']] },
      'topology.0',
      /name the agent itself/,
    ],
    ['an edge from a counted entry to itself', { agents: [{ name: 'w', count: 3 }], topology: [['w', 'w']] }, 'topology.0', /itself/],
    [
      'an edge product over the cap',
      {
        agents: [
          { name: 'v', count: 1000 },
          { name: 'w', count: 1000 },
        ],
        topology: [['v', 'w']],
      },
      'topology',
      /more than 200000 edges/,
    ],
    ['a __proto__ entry name', { agents: [{ name: '__proto__', count: 2 }] }, 'agents.0.name', /./],
  ])('refuses %s', (_what, partial, path, message) => {
    const issues = issuesOf({ name: 's', ...partial });
    expect(issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  test('refuses count on a dynamically added agent (the add_agent schema has no count)', () => {
    expect(AgentSchema.safeParse({ name: 'w', count: 3 }).success).toBe(false);
  });
});
