#!/usr/bin/env node
'use strict';
// `npm run bench:swarm-launch -- [agents] [turns]` (docs/runners.md "swarm"): receipt latency on the remote node and the
// launch time of N agents across the two-node swarm of tools/docker/two-node-swarm.sh. Runs the TypeScript sources
// (tools/bin/load-ts.cjs) with the @genswarms/source export condition, so the libraries need no build.
const path = require('node:path');

if (!process.execArgv.includes('--conditions=@genswarms/source')) {
  const { spawnSync } = require('node:child_process');
  const r = spawnSync(process.execPath, ['--conditions=@genswarms/source', __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    shell: false,
  });
  process.exit(r.status === null ? 1 : r.status);
}
const { loadTs } = require('../bin/load-ts.cjs');

loadTs(
  path.join(__dirname, '..', 'src', 'bench', 'swarm-launch', 'main.ts'),
  path.join(__dirname, '..', 'dist', 'bench', 'swarm-launch', 'main.js'),
)
  .runSwarmLaunchBench(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench:swarm-launch: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
