// Flat ESLint config. The layering of docs/architecture.md is enforced here: `@nx/enforce-module-boundaries`
// over the package.json `nx.tags` (tools/eslint-rules/boundaries.cjs), a per-project `no-restricted-imports`
// for node:child_process and deep imports, and the local `genswarms/*` rules in tools/eslint-rules.
// CommonJS so that tools/test/eslint-rules.spec.ts can load it inside jest.
const js = require('@eslint/js');
const path = require('node:path');
const tseslint = require('typescript-eslint');
const genswarms = require('./tools/eslint-rules/index.cjs');
const { boundariesFor, readProjects, restrictedImportsFor } = require('./tools/eslint-rules/boundaries.cjs');
const { ensureProjectGraph } = require('./tools/eslint-rules/project-graph.cjs');

// Only the nx rule, loaded by file: the plugin's entry also tries to load tools/eslint-rules as an nx
// "workspace rules" TypeScript project (the same folder name) and logs an error on every run. The
// version is pinned exactly (23.2.1) in package.json; re-check this path when upgrading.
const NX_PLUGIN_DIR = path.dirname(require.resolve('@nx/eslint-plugin/package.json'));
const nx = {
  rules: { 'enforce-module-boundaries': require(path.join(NX_PLUGIN_DIR, 'dist/src/rules/enforce-module-boundaries.js')).default },
};
// The nx rule reads the cached project graph and silently skips itself without one: make sure it exists.
ensureProjectGraph(__dirname);
const PROJECTS = readProjects();
const SPEC_FILES = (root) => [`${root}/**/*.spec.ts`, `${root}/test/**/*.ts`, `${root}/src/**/test-support/**/*.ts`];

/** Rules that need type information. */
const TYPED_RULES = {
  '@typescript-eslint/switch-exhaustiveness-check': 'error',
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
};

const layering = [
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: { '@nx/enforce-module-boundaries': ['error', boundariesFor(PROJECTS, { spec: false })] },
  },
  {
    files: PROJECTS.flatMap((p) => SPEC_FILES(p.root)),
    rules: { '@nx/enforce-module-boundaries': ['error', boundariesFor(PROJECTS, { spec: true })] },
  },
  ...PROJECTS.flatMap((project) => [
    { files: [`${project.root}/**/*.ts`], rules: { 'no-restricted-imports': ['error', restrictedImportsFor(project, { spec: false })] } },
    { files: SPEC_FILES(project.root), rules: { 'no-restricted-imports': ['error', restrictedImportsFor(project, { spec: true })] } },
  ]),
];

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/out-tsc/**', '**/node_modules/**', '**/*.cjs', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    plugins: { genswarms },
    rules: {
      ...TYPED_RULES,
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'genswarms/no-shell-spawn': 'error',
      'genswarms/spawn-argv-array': 'error',
    },
  },
  ...layering,
  {
    // Every project's production code: a catch that drops its error says why (tools/eslint-rules/no-silent-catch.cjs).
    files: ['libs/*/src/**/*.ts', 'apps/*/src/**/*.ts', 'tools/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/test-support/**'],
    rules: { 'genswarms/no-silent-catch': 'error' },
  },
);
module.exports.TYPED_RULES = TYPED_RULES;
