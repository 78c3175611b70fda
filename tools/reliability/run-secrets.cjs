#!/usr/bin/env node
'use strict';
// The `secrets` suite of the reliability battery (docs/reliability.md "Secrets scan"): runs
// apps/server/test/secrets-scan.spec.ts with GENSWARMS_RELIABILITY=full unless told otherwise (every backend here,
// plus a server SIGKILL + restart and a second round of turns). The spec writes its rows to
// results/secrets/secrets-scan.json (GENSWARMS_FAULTS_ROWS); this script adds the jest row and writes
// results/secrets.json. Exit 1 when jest failed or a row is not ok.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const ROWS_DIR = path.join(RESULTS_DIR, 'secrets');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const SPEC = 'secrets-scan';

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

function main() {
  fs.rmSync(ROWS_DIR, { recursive: true, force: true });
  fs.mkdirSync(ROWS_DIR, { recursive: true });
  const started = Date.now();
  const env = { ...process.env, GENSWARMS_RELIABILITY: process.env.GENSWARMS_RELIABILITY ?? 'full', GENSWARMS_FAULTS_ROWS: ROWS_DIR };
  const args = [JEST, '-c', 'apps/server/jest.config.cjs', '--runInBand', `apps/server/test/${SPEC}.spec.ts`];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  const seconds = Math.round((Date.now() - started) / 1000);
  const file = path.join(ROWS_DIR, `${SPEC}.json`);
  const rows = fs.existsSync(file)
    ? JSON.parse(fs.readFileSync(file, 'utf8'))
    : [{ target: 'secrets scan', measure: 'rows written', value: 0, goal: '> 0', ok: false }];
  const jestOk = r.status === 0;
  rows.push({
    target: 'secrets scan',
    measure: 'jest spec',
    value: jestOk ? 'passed' : `exit ${r.status ?? r.signal}`,
    goal: 'passed',
    ok: jestOk,
  });
  rows.push({ target: 'secrets scan', measure: 'suite seconds', value: seconds, ok: true });
  const doc = { suite: 'secrets', date: new Date().toISOString(), commit: gitCommit(), rows };
  fs.writeFileSync(path.join(RESULTS_DIR, 'secrets.json'), `${JSON.stringify(doc, null, 2)}\n`);
  const hits = rows.find((x) => x.measure === 'hits');
  process.stdout.write(
    `secrets: ${hits === undefined ? 'no' : hits.value} hits, ${seconds} s; wrote tools/reliability/results/secrets.json\n`,
  );
  return jestOk && rows.every((x) => x.ok) ? 0 : 1;
}

process.exitCode = main();
