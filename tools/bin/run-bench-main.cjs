'use strict';
// The entry of a TypeScript bench (`tools/src/bench/<name>/main.ts`) run from a tools/bench/*.cjs wrapper: re-executes
// node with the @genswarms/source export condition (the libraries it imports then need no build), loads the sources
// (tools/bin/load-ts.cjs, or the built dist), calls `exportName(args)` and exits with its code.
const path = require('node:path');

function runBenchMain(wrapper, name, exportName) {
  if (!process.execArgv.includes('--conditions=@genswarms/source')) {
    const { spawnSync } = require('node:child_process');
    const r = spawnSync(process.execPath, ['--conditions=@genswarms/source', wrapper, ...process.argv.slice(2)], {
      stdio: 'inherit',
      shell: false,
    });
    process.exit(r.status === null ? 1 : r.status);
  }
  const { loadTs } = require('./load-ts.cjs');
  const tools = path.join(__dirname, '..');
  loadTs(path.join(tools, 'src', 'bench', name, 'main.ts'), path.join(tools, 'dist', 'bench', name, 'main.js'))
    [exportName](process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((error) => {
      process.stderr.write(`bench:${name}: ${error && error.stack ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}

module.exports = { runBenchMain };
