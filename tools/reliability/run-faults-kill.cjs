#!/usr/bin/env node
'use strict';
// The `faults-kill` suite of the reliability battery (docs/reliability.md "Faults: SIGKILL, tmux, dockerd"):
// runs apps/server/test/fault-kill-*.spec.ts in one jest process (in band: they kill servers, tmux servers and
// a private dockerd) with GENSWARMS_RELIABILITY=full unless told otherwise. Each spec writes its rows to
// results/faults-kill/<spec>.json (GENSWARMS_FAULTS_ROWS); this script merges them, adds the summary rows
// (faults injected, survived, tasks lost, duplicated) and writes results/faults-kill.json. Exit 1 when jest
// failed or a row is not ok.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const ROWS_DIR = path.join(RESULTS_DIR, 'faults-kill');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const SPECS = ['fault-kill-backends', 'fault-kill-lifecycle', 'fault-kill-tmux', 'fault-kill-dockerd'];

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

function main() {
  fs.rmSync(ROWS_DIR, { recursive: true, force: true });
  fs.mkdirSync(ROWS_DIR, { recursive: true });
  const started = Date.now();
  const env = { ...process.env, GENSWARMS_RELIABILITY: process.env.GENSWARMS_RELIABILITY ?? 'full', GENSWARMS_FAULTS_ROWS: ROWS_DIR };
  const jestJson = path.join(ROWS_DIR, 'jest.json');
  const args = [
    JEST,
    '-c',
    'apps/server/jest.config.cjs',
    '--runInBand',
    '--json',
    `--outputFile=${jestJson}`,
    ...SPECS.map((s) => `apps/server/test/${s}.spec.ts`),
  ];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  const seconds = Math.round((Date.now() - started) / 1000);
  const rows = [];
  for (const spec of SPECS) {
    const name = spec.replace(/^fault-kill-/, '');
    const file = path.join(ROWS_DIR, `${name}.json`);
    if (!fs.existsSync(file)) {
      rows.push({ target: spec, measure: 'rows written', value: 0, goal: '> 0', ok: false });
      continue;
    }
    for (const row of JSON.parse(fs.readFileSync(file, 'utf8'))) rows.push(row);
  }
  const targets = new Map();
  for (const row of rows) targets.set(row.target, (targets.get(row.target) ?? true) && row.ok === true);
  const sum = (measure) => rows.filter((x) => x.measure === measure).reduce((a, x) => a + Number(x.value), 0);
  // a test that failed wrote no rows: it counts as a fault injected and not survived
  const failedTests = fs.existsSync(jestJson) ? Number(JSON.parse(fs.readFileSync(jestJson, 'utf8')).numFailedTests) : 0;
  const injected = targets.size + failedTests;
  const survived = [...targets.values()].filter(Boolean).length;
  const jestOk = r.status === 0;
  const summary = [
    { target: '(all faults)', measure: 'faults injected', value: injected, ok: injected > 0 },
    { target: '(all faults)', measure: 'faults survived', value: survived, goal: String(injected), ok: survived === injected },
    { target: '(all faults)', measure: 'tasks lost', value: sum('tasks lost'), goal: '0', ok: sum('tasks lost') === 0 },
    { target: '(all faults)', measure: 'tasks duplicated', value: sum('tasks duplicated'), goal: '0', ok: sum('tasks duplicated') === 0 },
    {
      target: '(all faults)',
      measure: 'jest specs',
      value: jestOk ? 'passed' : `exit ${r.status ?? r.signal}`,
      goal: 'passed',
      ok: jestOk,
    },
    { target: '(all faults)', measure: 'seconds', value: seconds, ok: true },
  ];
  const doc = { suite: 'faults-kill', date: new Date().toISOString(), commit: gitCommit(), rows: [...summary, ...rows] };
  fs.writeFileSync(path.join(RESULTS_DIR, 'faults-kill.json'), `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(
    `faults-kill: ${survived}/${injected} faults survived, ${seconds} s; wrote tools/reliability/results/faults-kill.json\n`,
  );
  return jestOk && doc.rows.every((x) => x.ok) ? 0 : 1;
}

process.exitCode = main();
