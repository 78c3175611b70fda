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
const kit = require('./suite-kit.cjs');

const SPECS = ['fault-kill-backends', 'fault-kill-lifecycle', 'fault-kill-tmux', 'fault-kill-dockerd'];

function main() {
  const dir = kit.rowsDir('faults-kill');
  const jsonFile = path.join(dir, 'jest.json');
  const run = kit.runSpecs(SPECS, { dir, rowsEnv: 'GENSWARMS_FAULTS_ROWS', jsonFile });
  const rows = kit.collectRows(SPECS, dir, (spec) => spec.replace(/^fault-kill-/, ''));
  // a test that failed wrote no rows: it counts as a fault injected and not survived
  const failedTests = fs.existsSync(jsonFile) ? Number(JSON.parse(fs.readFileSync(jsonFile, 'utf8')).numFailedTests) : 0;
  const summary = kit.faultSummary(rows, run, failedTests);
  const doc = kit.writeSuite('faults-kill', [...summary.rows, ...rows]);
  process.stdout.write(
    `faults-kill: ${summary.survived}/${summary.injected} faults survived, ${run.seconds} s; wrote tools/reliability/results/faults-kill.json\n`,
  );
  return run.ok && doc.rows.every((x) => x.ok) ? 0 : 1;
}

process.exitCode = main();
