/** Specs sit where CONTRIBUTING.md "Where specs go" says (tools/test/support/spec-layout.ts lists the checks). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, type TempDir } from '@genswarms/test-kit';
import { REPO_ROOT } from './support/spec-files';
import { specLayoutBreaches } from './support/spec-layout';

const BARREL = 'export const a = 1;\n';
const PIN = "import * as lib from './index';\nexpect(Object.keys(lib).sort()).toEqual(['a']);\n";

describe('the layout check', () => {
  let dir: TempDir;
  const write = (files: Record<string, string>): void => {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir.path, name)), { recursive: true });
      fs.writeFileSync(path.join(dir.path, name), text);
    }
  };
  beforeEach(() => {
    dir = tempDir('gs-spec-layout-');
    write({
      'tools/package.json': '{}',
      'tools/test-kit/package.json': '{}',
      'libs/x/package.json': '{}',
      'libs/x/src/index.ts': BARREL,
      'libs/x/src/index.spec.ts': PIN,
      'libs/x/src/lib/parse/parse.ts': 'export const parse = 1;\n',
      'libs/x/src/lib/parse/parse.spec.ts': "import { parse } from './parse';\n",
      'libs/x/src/lib/parse/nul-in-input.spec.ts': "import { parse } from './parse';\n",
      'libs/x/test/support/harness.ts': 'export const h = 1;\n',
      'libs/x/test/end-to-end.spec.ts': "import { a } from '../src/index';\nimport { h } from './support/harness';\n",
      'apps/.keep': '',
    });
  });
  afterEach(() => dir.cleanup());

  it('accepts unit specs beside their module, whole-project specs and support under test/', () => {
    expect(specLayoutBreaches(dir.path)).toEqual([]);
  });

  test.each<[string, Record<string, string>, RegExp]>([
    ['a spec at the project root', { 'libs/x/x.spec.ts': '' }, /^libs\/x\/x\.spec\.ts: specs live under src\/ or test\//],
    ['a spec in bench/', { 'libs/x/bench/b.spec.ts': '' }, /specs live under src\/ or test\//],
    ['a .test.ts file', { 'libs/x/test/a.test.ts': '' }, /name specs \*\.spec\.ts/],
    ['a __tests__ folder', { 'libs/x/src/__tests__/a.spec.ts': "import { a } from '../index';\n" }, /no __tests__ folders/],
    [
      'a src spec that drives only other packages',
      { 'libs/x/src/lib/parse/other.spec.ts': "import { b } from '@genswarms/y';\n" },
      /belongs in test\//,
    ],
    ['a src spec importing only another spec', { 'libs/x/src/lib/parse/again.spec.ts': "import './parse.spec';\n" }, /belongs in test\//],
    [
      'a src spec reaching out of src/',
      { 'libs/x/src/lib/parse/out.spec.ts': "import { h } from '../../../test/support/harness';\n" },
      /belongs in test\//,
    ],
    [
      'production code importing test support',
      { 'libs/x/src/lib/parse/use.ts': "import { h } from '../../../test/support/harness';\n" },
      /production code imports test code/,
    ],
    ['a barrel without its pin', { 'libs/x/src/index.spec.ts': "import './index';\n" }, /^libs\/x\/src\/index\.spec\.ts: pin the barrel/],
  ])('refuses %s', (_name, files, why) => {
    write(files);
    const breaches = specLayoutBreaches(dir.path);
    expect(breaches).toHaveLength(1);
    expect(breaches[0]).toMatch(why);
  });
});

describe('the workspace follows the spec layout', () => {
  it('has no layout breach', () => {
    expect(specLayoutBreaches(REPO_ROOT)).toEqual([]);
  });
});
