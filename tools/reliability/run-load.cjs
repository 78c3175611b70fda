#!/usr/bin/env node
'use strict';
// The `load` suite of the reliability battery (docs/reliability.md "Load"): runs apps/server/test/load-*.spec.ts
// in one jest process (in band: they load the machine) with GENSWARMS_RELIABILITY=full unless told otherwise —
// socket.io fan-out (100 clients x 10,000 tasks over 100 mock agents, the built server process), slow consumers,
// 1,000 concurrent REST clients and the inbox bound. Each spec writes its rows to results/load/<spec>.json
// (GENSWARMS_LOAD_ROWS); this script merges them, adds the jest row and writes results/load.json.
// `--only <spec>[,<spec>]` runs some specs again, keeping the others' last rows. Exit 1 when jest failed or a
// row is not ok.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const ROWS_DIR = path.join(RESULTS_DIR, 'load');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const SPECS = ['load-fanout', 'load-slow-consumer', 'load-rest'];

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

/** `--only <spec>[,<spec>]`: runs those specs again and merges them with the other specs' last rows. */
function specsToRun(argv) {
  const i = argv.indexOf('--only');
  if (i === -1) return SPECS;
  const only = String(argv[i + 1] ?? '')
    .split(',')
    .filter((s) => s !== '');
  const unknown = only.filter((s) => !SPECS.includes(s));
  if (only.length === 0 || unknown.length > 0) throw new Error(`--only takes specs of ${SPECS.join(', ')}`);
  return only;
}

function main() {
  const run = specsToRun(process.argv.slice(2));
  if (run === SPECS) fs.rmSync(ROWS_DIR, { recursive: true, force: true });
  for (const spec of run) fs.rmSync(path.join(ROWS_DIR, `${spec}.json`), { force: true });
  fs.mkdirSync(ROWS_DIR, { recursive: true });
  const started = Date.now();
  const env = { ...process.env, GENSWARMS_RELIABILITY: process.env.GENSWARMS_RELIABILITY ?? 'full', GENSWARMS_LOAD_ROWS: ROWS_DIR };
  const args = [JEST, '-c', 'apps/server/jest.config.cjs', '--runInBand', ...run.map((s) => `apps/server/test/${s}.spec.ts`)];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  const seconds = Math.round((Date.now() - started) / 1000);
  const rows = [];
  for (const spec of SPECS) {
    const file = path.join(ROWS_DIR, `${spec}.json`);
    if (!fs.existsSync(file)) {
      rows.push({ target: spec, measure: 'rows written', value: 0, goal: '> 0', ok: false });
      continue;
    }
    for (const row of JSON.parse(fs.readFileSync(file, 'utf8'))) rows.push(row);
  }
  const jestOk = r.status === 0;
  const summary = [
    { target: '(load)', measure: 'jest specs', value: jestOk ? 'passed' : `exit ${r.status ?? r.signal}`, goal: 'passed', ok: jestOk },
    { target: '(load)', measure: 'seconds', value: seconds, ok: true },
  ];
  const doc = { suite: 'load', date: new Date().toISOString(), commit: gitCommit(), rows: [...summary, ...rows] };
  fs.writeFileSync(path.join(RESULTS_DIR, 'load.json'), `${JSON.stringify(doc, null, 2)}\n`);
  const notOk = doc.rows.filter((x) => !x.ok).length;
  process.stdout.write(`load: ${rows.length} rows, ${notOk} not ok, ${seconds} s; wrote tools/reliability/results/load.json\n`);
  return jestOk && notOk === 0 ? 0 : 1;
}

process.exitCode = main();
