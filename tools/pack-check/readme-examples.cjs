// The README examples of the publishable libraries: fenced ```js example blocks, run as they are by
// tools/test/readme-examples.spec.ts (against the sources) and by pack-check.cjs (against the packed tarballs).
const fs = require('node:fs');
const path = require('node:path');

const EXAMPLE_RE = /```js example\n([\s\S]*?)```/g;

/** The code of every ```js example block of a README. */
function extractExamples(markdown) {
  return [...markdown.matchAll(EXAMPLE_RE)].map((m) => m[1]);
}

/** Every lib under libs/ whose package.json is not private, as {name, dir}. */
function publishableLibs(root) {
  const libs = path.join(root, 'libs');
  return fs
    .readdirSync(libs)
    .sort()
    .flatMap((entry) => {
      const file = path.join(libs, entry, 'package.json');
      if (!fs.existsSync(file)) return [];
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      return pkg.private === true ? [] : [{ name: pkg.name, dir: path.join(libs, entry) }];
    });
}

module.exports = { extractExamples, publishableLibs };
