#!/usr/bin/env node
'use strict';
// mock-llm CLI: `mock-llm.js [--port N] [--host H] [--script file.json] [--delay-ms N]`.
// Runs the TypeScript source through @swc/core when it is installed (dev checkout: no build needed),
// else the compiled tools/dist. Prints `mock-llm: listening on http://127.0.0.1:<port>`.
const fs = require('node:fs');
const path = require('node:path');

function loadCli() {
  const source = path.join(__dirname, '..', 'src', 'mock-llm', 'mock-llm-cli.ts');
  let swc = null;
  try {
    swc = require('@swc/core');
  } catch {
    swc = null; // production install without devDependencies: use the build
  }
  if (swc === null || !fs.existsSync(source)) return require('../dist/mock-llm/mock-llm-cli.js');
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

loadCli()
  .runMockLlmCli(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    process.stderr.write(`mock-llm: ${error && error.message ? error.message : String(error)}\n`);
    process.exit(1);
  });
