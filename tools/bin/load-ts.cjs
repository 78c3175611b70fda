'use strict';
// Loads a tools TypeScript entry: through @swc/core when it is installed (dev checkout: no build needed),
// else the compiled file under tools/dist. Shared by the plain CommonJS entries (mock-llm.js, run-bench.cjs).
const fs = require('node:fs');

/** `source`: the .ts entry; `built`: the compiled .js to require without @swc/core (or without the source). */
function loadTs(source, built) {
  let swc = null;
  try {
    swc = require('@swc/core');
  } catch {
    swc = null; // production install without devDependencies: use the build
  }
  if (swc === null || !fs.existsSync(source)) return require(built);
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

module.exports = { loadTs };
