/**
 * `npm run fuzz` without `--seed` picks its seed from the clock; a seed the specs then refuse made every target
 * "no report: exit 1" before any input ran. One target, one input, results in a temp dir.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

let results: string;
beforeAll(() => {
  results = mkdtempSync(join(tmpdir(), 'gs-fuzz-noseed-'));
});
afterAll(() => rmSync(results, { recursive: true, force: true }));

it('runs a target without --seed and it reports', () => {
  const env = { ...process.env };
  delete env['GENSWARMS_FUZZ_SEED'];
  delete env['GENSWARMS_FUZZ_COUNT'];
  const r = spawnSync(
    process.execPath,
    ['tools/reliability/run-fuzz.cjs', '--only', 'config-text', '--count', '1', '--results-dir', results],
    { cwd: ROOT, env, encoding: 'utf8', shell: false, timeout: 120_000 },
  );
  const seed = /seed ([0-9]+);/.exec(r.stdout)?.[1];
  expect({ status: r.status, summary: r.stdout.trim().split('\n').at(-1) }).toEqual({
    status: 0,
    summary: expect.stringMatching(/^fuzz: seed [0-9]+; load average .*; every target ok; wrote .*fuzz\.json$/),
  });
  const report = JSON.parse(readFileSync(join(results, 'fuzz', 'config-text.json'), 'utf8')) as { inputs: number; seed: number };
  expect(report).toMatchObject({ inputs: 1, seed: Number(seed) });
  const doc = JSON.parse(readFileSync(join(results, 'fuzz.json'), 'utf8')) as { runs: { seed: number }[] };
  expect(doc.runs.map((run) => run.seed)).toEqual([Number(seed)]);
}, 150_000);
