#!/usr/bin/env node
'use strict';
// `npm run bench:ssh-latency -- [turns]` (docs/runners.md "ssh"): receipt latency over a real sshd on loopback.
// Runs the TypeScript sources (tools/bin/load-ts.cjs) with the @genswarms/source export condition, so the libraries
// it imports need no build either.
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
  path.join(__dirname, '..', 'src', 'bench', 'ssh-latency', 'main.ts'),
  path.join(__dirname, '..', 'dist', 'bench', 'ssh-latency', 'main.js'),
)
  .runSshLatencyBench(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench:ssh-latency: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
