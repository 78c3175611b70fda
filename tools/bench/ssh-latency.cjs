#!/usr/bin/env node
'use strict';
// `npm run bench:ssh-latency -- [turns]` (docs/runners.md "ssh"): receipt latency over a real sshd on loopback.
// Runs the TypeScript sources through @swc/core with the @genswarms/source export condition (no build needed).
const fs = require('node:fs');
const path = require('node:path');

if (!process.execArgv.includes('--conditions=@genswarms/source')) {
  const { spawnSync } = require('node:child_process');
  const r = spawnSync(process.execPath, ['--conditions=@genswarms/source', __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    shell: false,
  });
  process.exit(r.status === null ? 1 : r.status);
}
const swc = require('@swc/core');
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(path.join(__dirname, '..', 'src', 'bench', 'ssh-latency', 'main.ts'))
  .runSshLatencyBench(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench:ssh-latency: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
