/**
 * The dependency rules of DESIGN.md, as data. `restrictedImportsFor(project)` turns them into the
 * options of ESLint's `no-restricted-imports` for that project's files.
 */
const LIBS = ['security', 'ir-gate', 'receipts', 'egress', 'runners', 'engine', 'procctl'];
const APPS = ['server', 'cli', 'agent'];

/** project -> { root, libs it may import }. type:core libs import no other lib. */
const PROJECTS = {
  security: { root: 'libs/security', libs: [] },
  'ir-gate': { root: 'libs/ir-gate', libs: [] },
  receipts: { root: 'libs/receipts', libs: [] },
  procctl: { root: 'libs/procctl', libs: [] },
  egress: { root: 'libs/egress', libs: ['security'] },
  runners: { root: 'libs/runners', libs: ['security', 'ir-gate', 'egress', 'procctl'] },
  engine: { root: 'libs/engine', libs: ['security', 'ir-gate', 'receipts', 'egress', 'runners', 'procctl'] },
  server: { root: 'apps/server', libs: LIBS },
  cli: { root: 'apps/cli', libs: LIBS },
  agent: { root: 'apps/agent', libs: [] },
  tools: { root: 'tools', libs: LIBS },
};

/** External modules confined to some projects (spec files may use child_process and socket.io-client). */
const CONFINED_EXTERNALS = [
  { names: ['dockerode'], allowed: ['runners'], spec: false, why: 'dockerode lives only in libs/runners (behind the typed Docker port)' },
  { names: ['express'], allowed: ['server'], spec: false, why: 'express lives only in apps/server' },
  { names: ['socket.io'], allowed: ['server'], spec: true, why: 'socket.io lives only in apps/server (specs may run a fixture server)' },
  { names: ['socket.io-client'], allowed: ['server', 'cli', 'tools'], spec: true, why: 'socket.io-client is for the CLI and tests' },
  { names: ['child_process', 'node:child_process'], allowed: ['runners', 'egress', 'cli', 'tools'], spec: true, why: 'processes are started only by runners, egress and the CLI daemon start' },
  { names: ['better-sqlite3'], allowed: ['engine'], spec: false, why: 'the SQLite store lives behind the engine Store interface' },
];

function restrictedImportsFor(project, { spec }) {
  const { libs } = PROJECTS[project];
  const paths = [];
  for (const lib of LIBS) {
    // Specs may use any lib as a fixture (e.g. receipts to await a runner's turn); apps stay off-limits.
    if (lib === project || libs.includes(lib) || spec) continue;
    paths.push({ name: `@genswarms/${lib}`, message: `${project} may not depend on @genswarms/${lib} (layering, DESIGN.md).` });
  }
  for (const app of APPS) {
    if (app === project) continue;
    paths.push({ name: `@genswarms/${app}`, message: 'Nothing may import an app.' });
  }
  for (const ext of CONFINED_EXTERNALS) {
    if (ext.allowed.includes(project) || (spec && ext.spec)) continue;
    for (const name of ext.names) paths.push({ name, message: `${ext.why}.` });
  }
  const patterns = [
    { group: ['@genswarms/*/*', '!@genswarms/*/package.json'], message: 'Import a lib through its barrel only (no deep imports).' },
    { regex: '^\\.\\.?/(?:.*/)?(?:libs|apps)/', message: 'Relative imports may not leave the project; use the @genswarms/<lib> barrel.' },
  ];
  return { paths, patterns };
}

module.exports = { LIBS, APPS, PROJECTS, CONFINED_EXTERNALS, restrictedImportsFor };
