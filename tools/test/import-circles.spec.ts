/**
 * No import circles inside any lib or app (`madge --circular` equivalent, tools/test/support/import-circles.ts).
 * A circle not in the allow-list fails; so does an allow-listed file that is no longer in a circle
 * (the list only shrinks).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findCircles, importGraph, projectCircles, sourceFiles } from './support/import-circles';

const ROOT = path.resolve(__dirname, '..', '..');

/** Files still in a circle, per project: none since the engine ports refactor (item 3). Keep it empty. */
const ALLOWED_CIRCLES: Readonly<Record<string, readonly string[]>> = {};

function projectRoots(): string[] {
  const roots = ['tools', 'tools/test-kit'];
  for (const group of ['libs', 'apps']) {
    for (const name of fs.readdirSync(path.join(ROOT, group)).sort()) {
      if (fs.existsSync(path.join(ROOT, group, name, 'package.json'))) roots.push(`${group}/${name}`);
    }
  }
  return roots;
}

describe('the circle finder', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-circles-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (files: Record<string, string>): void => {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
  };
  const circles = (): string[][] => findCircles(importGraph(sourceFiles(dir))).map((c) => c.map((f) => path.relative(dir, f)));

  test.each([
    [
      'a three-file circle',
      {
        'a.ts': "import { b } from './b';",
        'b.ts': "import { c } from './c';",
        'c.ts': "import { a } from './a';",
        'd.ts': "import { a } from './a';",
      },
      [['a.ts', 'b.ts', 'c.ts']],
    ],
    [
      'a circle through a type-only import',
      { 'a.ts': "import type { B } from './b';", 'b.ts': "import { a } from './a';" },
      [['a.ts', 'b.ts']],
    ],
    [
      'a circle through a re-export and a folder index',
      { 'a.ts': "export * from './sub';", 'sub/index.ts': "export { x } from '../a.js';" },
      [['a.ts', 'sub/index.ts']],
    ],
    ['a file importing itself', { 'a.ts': "import { a } from './a';" }, [['a.ts']]],
    [
      'two separate circles',
      { 'a.ts': "import './b';", 'b.ts': "import './a';", 'c.ts': "import './d';", 'd.ts': "import './c';" },
      [
        ['a.ts', 'b.ts'],
        ['c.ts', 'd.ts'],
      ],
    ],
  ])('finds %s', (_name, files, expected) => {
    write(files);
    expect(circles()).toEqual(expected);
  });

  test.each([
    ['a chain', { 'a.ts': "import { b } from './b';", 'b.ts': "import { c } from './c';", 'c.ts': 'export const c = 1;' }],
    [
      'package imports (other projects are not followed)',
      { 'a.ts': "import { x } from '@genswarms/engine';", 'b.ts': "import { a } from './a';" },
    ],
    [
      'a spec importing back (specs are not production code)',
      { 'a.ts': "import { b } from './b';", 'b.ts': 'export const b = 1;', 'b.spec.ts': "import { a } from './a';" },
    ],
  ])('finds none in %s', (_name, files) => {
    write(files);
    expect(circles()).toEqual([]);
  });
});

describe.each(projectRoots())('%s', (root) => {
  const circles = projectCircles(ROOT, root);
  const allowed = new Set(ALLOWED_CIRCLES[root] ?? []);

  test('has no import circle outside the allow-list', () => {
    expect(circles.filter((c) => c.some((f) => !allowed.has(f)))).toEqual([]);
  });

  test('allow-lists only files that are still in a circle', () => {
    const inCircles = new Set(circles.flat());
    expect([...allowed].filter((f) => !inCircles.has(f))).toEqual([]);
  });
});
