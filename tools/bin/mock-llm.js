#!/usr/bin/env node
'use strict';
// mock-llm CLI: `mock-llm.js [--port N] [--host H] [--script file.json] [--delay-ms N]`.
// Runs the TypeScript source through @swc/core when it is installed (dev checkout: no build needed),
// else the compiled tools/dist. Prints `mock-llm: listening on http://127.0.0.1:<port>`.
const path = require('node:path');
const { loadTs } = require('./load-ts.cjs');

function loadCli() {
  return loadTs(
    path.join(__dirname, '..', 'src', 'mock-llm', 'mock-llm-cli.ts'),
    path.join(__dirname, '..', 'dist', 'mock-llm', 'mock-llm-cli.js'),
  );
}

loadCli()
  .runMockLlmCli(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`mock-llm: ${error && error.message ? error.message : String(error)}\n`);
    process.exit(1);
  });
