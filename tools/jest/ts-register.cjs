/**
 * `node --conditions=@genswarms/source --require <this> file.ts`: lets a plain `node` child process
 * (a spec's separate process: strace targets, a parent that is SIGKILLed, the agent under test) load
 * the workspace's TypeScript sources without a build. Each .ts file is transpiled in memory with
 * @swc/core, with the same settings as jest.preset.cjs; nothing is written to disk, so tests never race
 * a concurrent `tsc -b` over a dist directory.
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
