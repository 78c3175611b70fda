import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { overlapsNormalized } from './path-rules';
import { ProtectedPathIndex, type ProtectedEntry } from './protected-index';

let tmp: string;
let home: string;
let entries: ProtectedEntry[];

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-protected-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(tmp, 'named', 'real'), { recursive: true });
  fs.symlinkSync(path.join(tmp, 'named', 'real'), path.join(tmp, 'named', 'link'));
  const dirs = (swarm: string, agent: string): ProtectedEntry[] => [
    { path: path.join(home, 'workspaces', swarm, agent), owner: agent },
    { path: path.join(home, 'state', swarm, agent), owner: agent },
  ];
  entries = [
    ...dirs('s', 'a'),
    ...dirs('s', 'b'),
    ...dirs('s', 'c'),
    { path: path.join(home, 'workspaces', 's', 'a'), owner: 'a' }, // the session names the same directory again
    { path: path.join(home, 'workspaces', 's', 'shared'), owner: 'd' },
    { path: path.join(home, 'workspaces', 's', 'shared'), owner: 'e' }, // two agents on one directory
    { path: path.join(tmp, 'named', 'link'), owner: 'f' }, // operator-named: resolved at each check
    { path: `${home}/workspaces/s/../s/g`, owner: 'g' }, // not written exactly: not indexed, still protected
    { path: 'relative/ws', owner: 'h' }, // never an absolute path: ignored, as the list rule ignores it
  ];
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The rule as the plain list applied it: every entry of another owner, resolved, overlapping `real`. */
function listRule(real: string, self: string | undefined): boolean {
  return entries.some((e) => e.owner !== self && path.isAbsolute(e.path) && overlapsNormalized(real, resolved(e.path)));
}

function resolved(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

const QUERIES = (): string[] => [
  '/',
  tmp,
  home,
  path.join(home, 'workspaces'),
  path.join(home, 'workspaces', 's'),
  path.join(home, 'state', 's'),
  path.join(home, 'workspaces', 's', 'a'),
  path.join(home, 'workspaces', 's', 'a', 'deep', 'er'),
  path.join(home, 'state', 's', 'b'),
  path.join(home, 'workspaces', 's', 'ab'), // a sibling whose name extends another's
  path.join(home, 'workspaces', 's', 'shared'),
  path.join(home, 'workspaces', 's', 'shared', 'x'),
  path.join(home, 'workspaces', 's', 'g'),
  path.join(home, 'workspaces', 'other'),
  path.join(tmp, 'named'),
  path.join(tmp, 'named', 'real'),
  path.join(tmp, 'named', 'real', 'inner'),
  path.join(tmp, 'named', 'link'),
  path.join(tmp, 'elsewhere'),
  path.join(tmp, 'relative'),
];

const SELVES = [undefined, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'nobody', '__proto__'];

test("answers as the list of every other agent's directories did, for every query and every agent", () => {
  const index = new ProtectedPathIndex(entries, home);
  const mismatches: string[] = [];
  for (const self of SELVES)
    for (const q of QUERIES()) if (index.overlaps(q, self) !== listRule(q, self)) mismatches.push(`${String(self)} ${q}`);
  expect(mismatches).toEqual([]);
  // the table is not trivial: both answers occur, and leaving an agent out changes some
  const answers = QUERIES().map((q) => index.checkFor('a').overlaps(q));
  expect(answers).toContain(true);
  expect(answers).toContain(false);
  expect(index.overlaps(path.join(home, 'workspaces', 's', 'a'), 'a')).toBe(false);
  expect(index.overlaps(path.join(home, 'workspaces', 's', 'a'), 'b')).toBe(true);
  expect(index.overlaps(path.join(home, 'workspaces', 's', 'shared'), 'd')).toBe(true); // e's too
});

test('an operator-named directory is resolved at each check: a link moved after indexing is followed', () => {
  const index = new ProtectedPathIndex(entries, home);
  const moved = path.join(tmp, 'moved');
  fs.mkdirSync(moved);
  expect(index.overlaps(moved, 'a')).toBe(false);
  fs.unlinkSync(path.join(tmp, 'named', 'link'));
  fs.symlinkSync(moved, path.join(tmp, 'named', 'link'));
  expect(index.overlaps(moved, 'a')).toBe(true);
  expect(index.overlaps(path.join(tmp, 'named', 'real'), 'a')).toBe(false);
});

test('10,000 agents: a check costs the depth of the path, not the agent count', () => {
  const many: ProtectedEntry[] = [];
  for (let i = 0; i < 10_000; i++)
    many.push(
      { path: path.join(home, 'workspaces', 'big', `a${i}`), owner: `a${i}` },
      { path: path.join(home, 'state', 'big', `a${i}`), owner: `a${i}` },
    );
  const index = new ProtectedPathIndex(many, home);
  let hits = 0;
  for (let i = 0; i < 10_000; i++) if (index.overlaps(path.join(home, 'workspaces', 'big', `a${i}`, 'sub'), `a${i}`)) hits += 1;
  expect(hits).toBe(0);
  expect(index.overlaps(path.join(home, 'workspaces', 'big'), 'a1')).toBe(true); // holds the others
  expect(index.overlaps(path.join(home, 'workspaces', 'big', 'a2'), 'a1')).toBe(true);
});

test('entries added and removed one by one answer as an index built from what is left', () => {
  const index = new ProtectedPathIndex([], home);
  for (const e of entries) index.add(e);
  const extra = { path: path.join(home, 'workspaces', 's', 'late'), owner: 'late' };
  index.add(extra);
  index.add(extra); // a session re-added under the same name
  index.remove(extra);
  index.remove(entries[0]!); // a's config entry once: its session entry of the same directory stays
  index.remove(entries[2]!);
  index.remove(entries[8]!); // e's name on the shared directory: d's stays
  index.remove(entries[9]!); // the operator-named link
  index.remove({ path: path.join(home, 'workspaces', 's', 'never'), owner: 'x' }); // never added: no effect
  const left = [...entries.filter((_, i) => ![0, 2, 8, 9].includes(i)), extra];
  const fresh = new ProtectedPathIndex(left, home);
  const queries = [...QUERIES(), extra.path];
  const mismatches = SELVES.flatMap((self) =>
    queries.filter((q) => index.overlaps(q, self) !== fresh.overlaps(q, self)).map((q) => `${String(self)} ${q}`),
  );
  expect(mismatches).toEqual([]);
  expect(index.overlaps(extra.path, 'a')).toBe(true);
  index.remove(extra);
  expect(index.overlaps(extra.path, 'a')).toBe(false);
});
