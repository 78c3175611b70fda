import { foldAgentCounts } from './agent-count-fold';
import { expandAgentCounts } from './agent-count';
import { CONFIG_MAX_BYTES } from './limits';

type Json = Record<string, unknown>;
type Agents = Json[];

const worker = { backend: 'bwrap', network: 'none', model: 'm', config: { env: { K: 'v' } } };
const ws = (n: number, extra: Json = {}): Agents => Array.from({ length: n }, (_, i) => ({ name: `w_${i + 1}`, ...worker, ...extra }));
const swarm = (agents: Agents, topology: unknown[] = []): Json => ({
  name: 's',
  agents,
  objects: [{ name: 'log', handler: 'collector' }],
  topology,
});
const fanOut = (from: string, tos: string[]): string[][] => tos.map((t) => [from, t]);
const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `w_${i + 1}`);

describe('foldAgentCounts', () => {
  test('a counted entry written out folds back to the entry, its edges to edges naming it', () => {
    const compact = swarm([{ name: 'boss' }, { name: 'w', count: 3, ...worker }], [['boss', 'w'], { from: 'w', to: 'log' }]);
    const written = expandAgentCounts(compact as never) as Json;
    expect(written['agents']).toHaveLength(4);
    const folded = foldAgentCounts(written);
    expect(folded['agents']).toEqual([{ name: 'boss' }, { ...worker, name: 'w', count: 3 }]);
    expect(folded['topology']).toEqual([
      ['boss', 'w'],
      ['w', 'log'],
    ]);
    expect(expandAgentCounts(folded as never)).toEqual(written);
  });

  test('10,000 instances fold into a body under the config limit (written out they are over it)', () => {
    const written = swarm([{ name: 'boss' }, ...ws(10_000)], fanOut('boss', names(10_000)));
    expect(Buffer.byteLength(JSON.stringify(written))).toBeGreaterThan(CONFIG_MAX_BYTES);
    const folded = foldAgentCounts(written);
    expect(Buffer.byteLength(JSON.stringify(folded))).toBeLessThan(1_000);
    expect(folded['agents']).toEqual([{ name: 'boss' }, { ...worker, name: 'w', count: 10_000 }]);
  });

  // each case would change the swarm's meaning or be refused if folded: it stays written out as it was
  test.each<[string, Json]>([
    ['one instance differs (an overlay changed it)', swarm([...ws(1), { ...ws(1)[0], name: 'w_2', model: 'other' }, ...ws(3).slice(2)])],
    ['the run does not start at _1', swarm(ws(3).slice(1))],
    ['the run is broken by another agent', swarm([ws(1)[0]!, { name: 'x' }, ws(2)[1]!])],
    ['the base name is an agent', swarm([{ name: 'w' }, ...ws(3)])],
    ['the base name is an object', { ...swarm(ws(3)), objects: [{ name: 'w', handler: 'collector' }] }],
    ['instances share a workspace directory (refused for a count)', swarm(ws(3, { workspace: '/srv/shared' }))],
    [
      'edges join instances to each other (a counted self-edge is refused)',
      swarm(ws(2), [
        ['w_1', 'w_2'],
        ['w_2', 'w_1'],
      ]),
    ],
    ['a single instance', swarm(ws(1))],
    ['an entry already counted', swarm([{ name: 'w', count: 2, ...worker }])],
  ])('%s', (_what, config) => {
    expect(foldAgentCounts(config)).toBe(config);
  });

  test('an edge to one instance only: that run stays written out, a run no edge touches still folds', () => {
    const other = Array.from({ length: 2 }, (_, i) => ({ name: `v_${i + 1}`, model: 'm' }));
    const config = swarm([...ws(3), ...other], [['w_2', 'log']]);
    const folded = foldAgentCounts(config);
    expect(folded['agents']).toEqual([...ws(3), { name: 'v', model: 'm', count: 2 }]);
    expect(folded['topology']).toEqual([['w_2', 'log']]);
  });

  test.each([null, 7, 'x', {}, { agents: 'no' }, { agents: [{ name: '__proto___1' }, { name: '__proto___2' }] }])(
    'a value that is not a valid config comes back unchanged: %j',
    (value) => {
      expect(foldAgentCounts(value)).toBe(value);
    },
  );
});
