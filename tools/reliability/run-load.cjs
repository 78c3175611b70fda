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
const kit = require('./suite-kit.cjs');

const SPECS = ['load-fanout', 'load-slow-consumer', 'load-rest'];

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
  const toRun = specsToRun(process.argv.slice(2));
  const dir = kit.rowsDir('load', toRun !== SPECS);
  for (const spec of toRun) fs.rmSync(path.join(dir, `${spec}.json`), { force: true });
  const run = kit.runSpecs(toRun, { dir, rowsEnv: 'GENSWARMS_LOAD_ROWS' });
  const rows = kit.collectRows(SPECS, dir);
  const summary = [kit.jestRow('(load)', run), { target: '(load)', measure: 'seconds', value: run.seconds, ok: true }];
  const doc = kit.writeSuite('load', [...summary, ...rows]);
  const notOk = doc.rows.filter((x) => !x.ok).length;
  process.stdout.write(`load: ${rows.length} rows, ${notOk} not ok, ${run.seconds} s; wrote tools/reliability/results/load.json\n`);
  return run.ok && notOk === 0 ? 0 : 1;
}

process.exitCode = main();
