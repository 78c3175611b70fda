#!/usr/bin/env node
'use strict';
// `npm run bench -- [flags]` (docs/benchmarks.md): the swarm-scale harness. Runs the TypeScript source
// through @swc/core (dev checkout: no build of tools needed); the harness builds the server itself.
const fs = require('node:fs');
const path = require('node:path');

function loadHarness() {
  const source = path.join(__dirname, '..', 'src', 'bench', 'swarm', 'main.ts');
  let swc = null;
  try {
    swc = require('@swc/core');
  } catch {
    swc = null; // production install without devDependencies: use the build
  }
  if (swc === null) return require('../dist/bench/swarm/main.js');
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
  return require(source);
}

loadHarness()
  .runBenchCli(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`bench: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
