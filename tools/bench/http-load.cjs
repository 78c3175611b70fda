#!/usr/bin/env node
'use strict';
// The harness's HTTP load client (docs/benchmarks.md, "API"), run as its own process so that it never
// shares an event loop with the harness: reads its spec as JSON on stdin, prints one JSON result line.
const path = require('node:path');
const { loadTs } = require('../bin/load-ts.cjs');

loadTs(
  path.join(__dirname, '..', 'src', 'bench', 'swarm', 'http-load.ts'),
  path.join(__dirname, '..', 'dist', 'bench', 'swarm', 'http-load.js'),
)
  .httpLoadMain()
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`http-load: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
