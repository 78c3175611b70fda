#!/usr/bin/env node
'use strict';
// The `faults-disk` suite of the reliability battery (docs/reliability.md "Faults: disk full, corrupt database,
// hostile agents"): runs apps/server/test/fault-disk-*.spec.ts and fault-hostile-*.spec.ts in one jest process
// (in band: they mount a tmpfs and flood a real server) with GENSWARMS_RELIABILITY=full unless told otherwise.
// Each spec writes its rows to results/faults-disk/<spec>.json (GENSWARMS_FAULTS_ROWS); this script merges them,
// adds the summary rows and writes results/faults-disk.json. Exit 1 when jest failed or a row is not ok.
const kit = require('./suite-kit.cjs');

const SPECS = ['fault-disk-full', 'fault-disk-corrupt-db', 'fault-hostile-agents'];

function main() {
  const dir = kit.rowsDir('faults-disk');
  const run = kit.runSpecs(SPECS, { dir, rowsEnv: 'GENSWARMS_FAULTS_ROWS' });
  const rows = kit.collectRows(SPECS, dir);
  const summary = kit.faultSummary(rows, run);
  const doc = kit.writeSuite('faults-disk', [...summary.rows, ...rows]);
  process.stdout.write(
    `faults-disk: ${summary.survived}/${summary.injected} faults survived, ${run.seconds} s; wrote tools/reliability/results/faults-disk.json\n`,
  );
  return run.ok && doc.rows.every((x) => x.ok) ? 0 : 1;
}

process.exitCode = main();
