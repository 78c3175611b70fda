/**
 * Builds the dashboard into dist/: index.html, app.js (one bundle, minified) and app.css (xterm's CSS
 * included). No CDN, no font: the server serves these files at /ui/. `node build.cjs`.
 */
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const OUT = path.join(__dirname, 'dist');

async function main() {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  await esbuild.build({
    entryPoints: { app: path.join(__dirname, 'src/main.ts'), 'app-style': path.join(__dirname, 'src/app.css') },
    outdir: OUT,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2022', 'chrome120', 'firefox120', 'safari16'],
    platform: 'browser',
    // Workspace libs (@genswarms/client) are bundled from their TypeScript sources: no lib build needed first.
    conditions: ['@genswarms/source'],
    legalComments: 'none',
    sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  fs.renameSync(path.join(OUT, 'app-style.css'), path.join(OUT, 'app.css'));
  for (const f of ['index.html', 'favicon.svg']) fs.copyFileSync(path.join(__dirname, 'src', f), path.join(OUT, f));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
