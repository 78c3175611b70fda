'use strict';
// What the jest-backed suites of the reliability battery share (run-faults-kill, run-faults-disk, run-load,
// run-secrets): run some apps/server specs in one jest process, in band, in full mode unless told otherwise, with
// a directory where each spec writes its rows; merge the rows; summarise faults; write results/<suite>.json.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

/** The directory a suite's specs write their rows to (emptied unless `keep`). */
function rowsDir(suite, keep = false) {
  const dir = path.join(RESULTS_DIR, suite);
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Runs `specs` (names under apps/server/test, without .spec.ts) in one jest process, in band, with
 * GENSWARMS_RELIABILITY=full unless set and `rowsEnv` naming the rows directory. `jsonFile`: jest's --json output.
 * Returns {ok, status, seconds}.
 */
function runSpecs(specs, { dir, rowsEnv, jsonFile }) {
  const started = Date.now();
  const env = { ...process.env, GENSWARMS_RELIABILITY: process.env.GENSWARMS_RELIABILITY ?? 'full', [rowsEnv]: dir };
  const args = [JEST, '-c', 'apps/server/jest.config.cjs', '--runInBand'];
  if (jsonFile !== undefined) args.push('--json', `--outputFile=${jsonFile}`);
  args.push(...specs.map((s) => `apps/server/test/${s}.spec.ts`));
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  const status = r.status ?? r.signal;
  return { ok: r.status === 0, status, seconds: Math.round((Date.now() - started) / 1000) };
}

/** Every row the specs wrote (`<dir>/<fileOf(spec)>.json`); a spec that wrote none gets a not-ok row. */
function collectRows(specs, dir, fileOf = (spec) => spec) {
  const rows = [];
  for (const spec of specs) {
    const file = path.join(dir, `${fileOf(spec)}.json`);
    if (!fs.existsSync(file)) {
      rows.push({ target: spec, measure: 'rows written', value: 0, goal: '> 0', ok: false });
      continue;
    }
    for (const row of JSON.parse(fs.readFileSync(file, 'utf8'))) rows.push(row);
  }
  return rows;
}

/** The jest row of a suite. */
function jestRow(target, run, measure = 'jest specs') {
  return { target, measure, value: run.ok ? 'passed' : `exit ${run.status}`, goal: 'passed', ok: run.ok };
}

/**
 * The summary of a fault suite: a target is one fault, survived when all its rows are ok; `failedTests` (tests that
 * failed before writing rows) count as faults injected and not survived. Returns {rows, injected, survived}.
 */
function faultSummary(rows, run, failedTests = 0) {
  const targets = new Map();
  for (const row of rows) targets.set(row.target, (targets.get(row.target) ?? true) && row.ok === true);
  const sum = (measure) => rows.filter((x) => x.measure === measure).reduce((a, x) => a + Number(x.value), 0);
  const injected = targets.size + failedTests;
  const survived = [...targets.values()].filter(Boolean).length;
  const all = '(all faults)';
  return {
    injected,
    survived,
    rows: [
      { target: all, measure: 'faults injected', value: injected, ok: injected > 0 },
      { target: all, measure: 'faults survived', value: survived, goal: String(injected), ok: survived === injected },
      { target: all, measure: 'tasks lost', value: sum('tasks lost'), goal: '0', ok: sum('tasks lost') === 0 },
      { target: all, measure: 'tasks duplicated', value: sum('tasks duplicated'), goal: '0', ok: sum('tasks duplicated') === 0 },
      jestRow(all, run),
      { target: all, measure: 'seconds', value: run.seconds, ok: true },
    ],
  };
}

/** Writes results/<suite>.json = {suite, date, commit, rows}; returns the document. */
function writeSuite(suite, rows) {
  const doc = { suite, date: new Date().toISOString(), commit: gitCommit(), rows };
  fs.writeFileSync(path.join(RESULTS_DIR, `${suite}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  return doc;
}

module.exports = { ROOT, RESULTS_DIR, gitCommit, rowsDir, runSpecs, collectRows, jestRow, faultSummary, writeSuite };
