#!/usr/bin/env node
'use strict';
// `npm run bench -- [flags]` (docs/benchmarks.md): the swarm-scale harness. Runs the TypeScript source
// through @swc/core (dev checkout: no build of tools needed); the harness builds the server itself.
const path = require('node:path');
const { loadTs } = require('../bin/load-ts.cjs');

function loadHarness() {
  return loadTs(
    path.join(__dirname, '..', 'src', 'bench', 'swarm', 'main.ts'),
    path.join(__dirname, '..', 'dist', 'bench', 'swarm', 'main.js'),
  );
}

loadHarness()
  .runBenchCli(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
