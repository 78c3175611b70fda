#!/usr/bin/env node
'use strict';
// The `secrets` suite of the reliability battery (docs/reliability.md "Secrets scan"): runs
// apps/server/test/secrets-scan.spec.ts with GENSWARMS_RELIABILITY=full unless told otherwise (every backend here,
// plus a server SIGKILL + restart and a second round of turns). The spec writes its rows to
// results/secrets/secrets-scan.json (GENSWARMS_FAULTS_ROWS); this script adds the jest row and writes
// results/secrets.json. Exit 1 when jest failed or a row is not ok.
const kit = require('./suite-kit.cjs');

const SPEC = 'secrets-scan';

function main() {
  const dir = kit.rowsDir('secrets');
  const run = kit.runSpecs([SPEC], { dir, rowsEnv: 'GENSWARMS_FAULTS_ROWS' });
  const written = kit.collectRows([SPEC], dir);
  const rows = written.length === 1 && written[0].measure === 'rows written' ? [{ ...written[0], target: 'secrets scan' }] : written;
  rows.push(kit.jestRow('secrets scan', run, 'jest spec'));
  rows.push({ target: 'secrets scan', measure: 'suite seconds', value: run.seconds, ok: true });
  kit.writeSuite('secrets', rows);
  const hits = rows.find((x) => x.measure === 'hits');
  process.stdout.write(
    `secrets: ${hits === undefined ? 'no' : hits.value} hits, ${run.seconds} s; wrote tools/reliability/results/secrets.json\n`,
  );
  return run.ok && rows.every((x) => x.ok) ? 0 : 1;
}

process.exitCode = main();
