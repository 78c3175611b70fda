#!/usr/bin/env node
// CI check that the publishable libs install as a platform team would install them: build, `npm pack`
// each, install every tarball into a fresh project outside the repo (registry dependencies only, no
// optional dependencies, so node-pty is absent), type-check an import of each, run every README example
// there, then exercise `nx release` with --dry-run. Prints each tarball's size. `npm run pack-check`.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { extractExamples, publishableLibs } = require('./readme-examples.cjs');
const fakeApi = require('./fake-api-server.cjs');

const ROOT = path.resolve(__dirname, '../..');
const NPM_CLI = process.env.npm_execpath ?? path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
const NX_CLI = path.join(ROOT, 'node_modules/nx/dist/bin/nx.js');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const TOKEN = 'pack-check-token';

/** Runs `node <script> ...args` (argv only, no shell); resolves to its output, rejects on a non-zero exit. */
function run(script, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${path.basename(script)} ${args.join(' ')} exited ${code}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`));
    });
  });
}

async function packAll(libs, dest) {
  const packed = [];
  for (const lib of libs) {
    const [info] = JSON.parse(await run(NPM_CLI, ['pack', '--json', '--pack-destination', dest], { cwd: lib.dir }));
    const files = new Set(info.files.map((f) => f.path));
    const pkg = JSON.parse(fs.readFileSync(path.join(lib.dir, 'package.json'), 'utf8'));
    const types = pkg.exports?.['.']?.types?.replace(/^\.\//, '');
    for (const need of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', types]) {
      if (!files.has(need)) throw new Error(`${lib.name}: the tarball lacks ${need}`);
    }
    if ([...files].some((f) => f.endsWith('.spec.js') || f.endsWith('.tsbuildinfo')))
      throw new Error(`${lib.name}: the tarball holds specs or build info`);
    packed.push({
      ...lib,
      tarball: path.join(dest, info.filename),
      size: info.size,
      unpackedSize: info.unpackedSize,
      fileCount: info.entryCount,
    });
  }
  return packed;
}

function writeProject(dir, packed) {
  const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`]));
  const allowScripts = { '@genswarms/procctl': true, 'better-sqlite3': true, 'node-pty': false, ssh2: false, 'cpu-features': false };
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'pack-check', private: true, dependencies, allowScripts }, null, 2),
  );
  const imports = packed.map((p, i) => `import * as lib${i} from '${p.name}';`).join('\n');
  const uses = packed.map((_p, i) => `lib${i}`).join(', ');
  fs.writeFileSync(
    path.join(dir, 'types.ts'),
    `${imports}\nimport type { Operations } from '@genswarms/client';\nexport type Task = Operations['sendTask']['body'];\nexport const all = [${uses}];\n`,
  );
}

async function runExamples(dir, packed, apiUrl) {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GENSWARMS_URL: apiUrl, GENSWARMS_API_TOKEN: TOKEN };
  for (const lib of packed) {
    const examples = extractExamples(fs.readFileSync(path.join(lib.dir, 'README.md'), 'utf8'));
    if (examples.length === 0) throw new Error(`${lib.name}: README has no \`\`\`js example block`);
    for (const [i, code] of examples.entries()) {
      const file = path.join(dir, `example-${lib.name.replace('@genswarms/', '')}-${i}.cjs`);
      fs.writeFileSync(file, code);
      const out = await run(file, [], { cwd: dir, env });
      console.log(`example ${lib.name}#${i}: ok (${out.trim().split('\n').length} lines)`);
    }
  }
}

async function main() {
  const libs = publishableLibs(ROOT);
  const names = libs.map((l) => path.basename(l.dir));
  await run(NX_CLI, ['run-many', '-t', 'build', `--projects=${names.join(',')}`, '--output-style=static']);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'genswarms-pack-check-'));
  const api = await fakeApi.start(TOKEN);
  try {
    const tarballs = path.join(work, 'tarballs');
    const project = path.join(work, 'project');
    fs.mkdirSync(tarballs);
    fs.mkdirSync(project);
    const packed = await packAll(libs, tarballs);
    writeProject(project, packed);
    await run(NPM_CLI, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional'], { cwd: project });
    if (fs.existsSync(path.join(project, 'node_modules/node-pty')))
      throw new Error('node-pty was installed although optional dependencies were omitted');
    const typeRoots = path.join(ROOT, 'node_modules/@types');
    await run(
      TSC,
      [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--typeRoots',
        typeRoots,
        '--types',
        'node',
        'types.ts',
      ],
      { cwd: project },
    );
    console.log('types: every package resolves with its declarations');
    await runExamples(project, packed, api.url);
    await run(NX_CLI, ['release', 'patch', '--dry-run', '--first-release', '--skip-publish']);
    console.log('nx release patch --dry-run: ok');
    for (const p of packed) console.log(`package ${p.name}: ${p.size} B packed, ${p.unpackedSize} B unpacked, ${p.fileCount} files`);
  } finally {
    await api.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
