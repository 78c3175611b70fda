/**
 * The dependency rules (docs/architecture.md "Layering") over the `nx.tags` of
 * each package.json, as options of `@nx/enforce-module-boundaries`:
 * - `type:app` → feature|core; `type:feature` → feature|core; `type:core` (security, ir-gate, receipts,
 *   procctl) → no lib; `type:tool` → feature|core; `type:test` (@genswarms/test-kit) → no lib. No
 *   constraint allows `type:app`: nothing imports an app; only specs may import `type:tool` and `type:test`.
 * - per scope: `scope:runners` → core and egress only (its one feature dependency); `scope:egress` →
 *   core only; `scope:agent` → no lib (the agent ships alone).
 * - external modules confined to scopes (`bannedExternalImports` on every other scope).
 * What tags cannot say stays in `no-restricted-imports`: `node:child_process` per project, and imports
 * past a lib's barrel. Specs may use any lib and tools as fixtures; apps stay off-limits to them too.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const FEATURE_OR_CORE = ['type:feature', 'type:core'];

/** onlyDependOnLibsWithTags per type tag (every project has exactly one). */
const TYPE_RULES = {
  'type:app': FEATURE_OR_CORE,
  'type:feature': FEATURE_OR_CORE,
  'type:core': [],
  'type:tool': FEATURE_OR_CORE,
  'type:test': [],
};
/** Narrower rules for some scopes; a project must satisfy its type rule AND its scope rule. */
const SCOPE_RULES = {
  'scope:runners': ['type:core', 'scope:egress'],
  'scope:egress': ['type:core'],
  'scope:agent': [],
};

/** External modules confined to some scopes; `spec: true` = specs may use them anywhere. */
const CONFINED_EXTERNALS = [
  {
    names: ['dockerode'],
    allowed: ['scope:runners'],
    spec: false,
    why: 'dockerode lives only in libs/runners (behind the typed Docker port)',
  },
  { names: ['express'], allowed: ['scope:server'], spec: false, why: 'express lives only in apps/server' },
  {
    names: ['socket.io'],
    allowed: ['scope:server'],
    spec: true,
    why: 'socket.io lives only in apps/server (specs may run a fixture server)',
  },
  {
    names: ['socket.io-client'],
    allowed: ['scope:server', 'scope:cli', 'scope:tools', 'scope:dashboard', 'scope:client'],
    spec: true,
    why: 'socket.io-client is for the CLI, the dashboard (bundled for the browser), @genswarms/client and tests',
  },
  { names: ['better-sqlite3'], allowed: ['scope:engine'], spec: false, why: 'the SQLite store lives behind the engine Store interface' },
];

/**
 * Not imports of an app: the CLI locates the server's built entry, and the server the agent's, by
 * `require.resolve('<app>/package.json')`, to spawn it as a process; the server finds the dashboard's
 * static files the same way. No code of the app is loaded.
 */
const APP_ENTRY_LOOKUPS = ['@genswarms/server/package.json', '@genswarms/agent/package.json', '@genswarms/dashboard/package.json'];

/** Projects that may start processes (`node:child_process`); specs and tools may too. */
const CHILD_PROCESS_PROJECTS = ['runners', 'egress', 'cli', 'tools'];

/** Every project of the workspace: its root, name and tags, read from the package.json files. */
function readProjects() {
  const roots = ['tools', 'tools/test-kit'];
  for (const group of ['libs', 'apps']) {
    for (const name of fs.readdirSync(path.join(ROOT, group)).sort()) roots.push(`${group}/${name}`);
  }
  return roots.flatMap((root) => {
    const file = path.join(ROOT, root, 'package.json');
    if (!fs.existsSync(file)) return [];
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
    return [{ root, name: pkg.nx?.name ?? path.basename(root), tags: pkg.nx?.tags ?? [] }];
  });
}

function scopesOf(projects) {
  return [...new Set(projects.flatMap((p) => p.tags.filter((t) => t.startsWith('scope:'))))].sort();
}

/** depConstraints for production code (`spec: false`) or for specs and test support (`spec: true`). */
function depConstraints(projects, { spec }) {
  const types = Object.entries(TYPE_RULES).map(([sourceTag, tags]) => ({
    sourceTag,
    onlyDependOnLibsWithTags: spec ? [...FEATURE_OR_CORE, 'type:tool', 'type:test'] : tags,
  }));
  const scopes = scopesOf(projects).map((sourceTag) => {
    const banned = CONFINED_EXTERNALS.filter((e) => !e.allowed.includes(sourceTag) && !(spec && e.spec)).flatMap((e) => e.names);
    const only = spec ? undefined : SCOPE_RULES[sourceTag];
    return {
      sourceTag,
      ...(only === undefined ? {} : { onlyDependOnLibsWithTags: only }),
      ...(banned.length === 0 ? {} : { bannedExternalImports: banned }),
    };
  });
  return [...types, ...scopes];
}

/**
 * Options of `@nx/enforce-module-boundaries`. In specs, a lib's tests may use `@genswarms/tools` (which
 * depends on the libs: a project-level cycle through test code only, not a module cycle) and may import
 * their own lib through its barrel, as a consumer does.
 */
function boundariesFor(projects, { spec }) {
  const opts = { allow: APP_ENTRY_LOOKUPS, enforceBuildableLibDependency: false, depConstraints: depConstraints(projects, { spec }) };
  if (!spec) return opts;
  const toolsCycles = projects.filter((p) => p.name !== 'tools').map((p) => [p.name, 'tools']);
  return { ...opts, allowCircularSelfDependency: true, ignoredCircularDependencies: toolsCycles };
}

/** Options of `no-restricted-imports` for one project: child_process confinement and barrel-only imports. */
function restrictedImportsFor(project, { spec }) {
  const paths = [];
  if (!spec && !CHILD_PROCESS_PROJECTS.includes(project.name)) {
    for (const name of ['child_process', 'node:child_process']) {
      paths.push({ name, message: 'Processes are started only by runners, egress and the CLI daemon start.' });
    }
  }
  const patterns = [
    { group: ['@genswarms/*/*', '!@genswarms/*/package.json'], message: 'Import a lib through its barrel only (no deep imports).' },
  ];
  return { paths, patterns };
}

module.exports = { TYPE_RULES, SCOPE_RULES, CONFINED_EXTERNALS, CHILD_PROCESS_PROJECTS, readProjects, boundariesFor, restrictedImportsFor };
