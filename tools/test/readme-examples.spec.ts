/**
 * Every publishable lib's README has at least one ```js example block, and each runs to exit 0 against
 * the sources (node + the swc require hook + the @genswarms/source condition). pack-check.cjs runs the
 * same blocks against the packed tarballs installed outside the repo.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS shared with pack-check.cjs
const { extractExamples, publishableLibs } = require('../pack-check/readme-examples.cjs') as {
  extractExamples: (markdown: string) => string[];
  publishableLibs: (root: string) => { name: string; dir: string }[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS shared with pack-check.cjs
const fakeApi = require('../pack-check/fake-api-server.cjs') as {
  start: (token: string) => Promise<{ url: string; close: () => Promise<void> }>;
};

const ROOT = resolve(__dirname, '../..');
const HOOK = join(ROOT, 'tools/jest/ts-register.cjs');
const TOKEN = 'readme-example-token';

function runNode(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--conditions=@genswarms/source', '-r', HOOK, file], {
      env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const libs = publishableLibs(ROOT);
let api: { url: string; close: () => Promise<void> };
let dir: string;
beforeAll(async () => {
  api = await fakeApi.start(TOKEN);
  dir = mkdtempSync(join(tmpdir(), 'gs-readme-'));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

it('finds the publishable libs', () => {
  expect(libs.map((l) => l.name)).toEqual(expect.arrayContaining(['@genswarms/client', '@genswarms/security', '@genswarms/runners']));
});

test.each(libs.map((l) => [l.name, l.dir] as const))(
  'the README example of %s runs',
  async (name, libDir) => {
    const examples = extractExamples(readFileSync(join(libDir, 'README.md'), 'utf8'));
    expect(examples.length).toBeGreaterThan(0);
    for (const [i, code] of examples.entries()) {
      const file = join(dir, `${name.replace('@genswarms/', '')}-${i}.cjs`);
      writeFileSync(file, code);
      const env = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: dir,
        NODE_PATH: join(ROOT, 'node_modules'),
        GENSWARMS_URL: api.url,
        GENSWARMS_API_TOKEN: TOKEN,
      };
      const run = await runNode(file, env);
      if (run.code !== 0) throw new Error(`${name} example ${i} exited ${run.code}:\n${run.stderr}`);
      expect(run.stdout).not.toBe('');
    }
  },
  30_000,
);
