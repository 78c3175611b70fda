/**
 * `node --require <this> apps/agent/src/main.ts`: runs the agent's TypeScript source without a build.
 * Each .ts file is transpiled in memory with @swc/core (same options as jest), nothing is written to
 * disk — so tests never race a concurrent `tsc -b` over apps/agent/dist (the alternative, a
 * globalSetup that builds dist when stale, would).
 */
'use strict';
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
