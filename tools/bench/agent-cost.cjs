#!/usr/bin/env node
'use strict';
// `npm run bench:agent-cost -- [--n 1,50] [--backends …]` (docs/benchmarks.md "Host cost per agent"): what one running
// agent costs the host per runner. Runs the TypeScript sources (tools/bin/load-ts.cjs); the server it starts is the
// built apps/server/dist (built first unless --no-build).
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
  path.join(__dirname, '..', 'src', 'bench', 'agent-cost', 'main.ts'),
  path.join(__dirname, '..', 'dist', 'bench', 'agent-cost', 'main.js'),
)
  .runAgentCost(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench:agent-cost: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
