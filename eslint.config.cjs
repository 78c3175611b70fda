// Flat ESLint config. The layering of DESIGN.md / HOUSE-STYLE rules 3-5 is enforced here with
// per-project `no-restricted-imports`, plus the local `genswarms/*` rules in tools/eslint-rules.
// CommonJS so that tools/test/eslint-rules.spec.ts can load it inside jest.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const genswarms = require('./tools/eslint-rules/index.cjs');
const { PROJECTS, restrictedImportsFor } = require('./tools/eslint-rules/layering.cjs');

/** Rules that need type information. */
const TYPED_RULES = {
  '@typescript-eslint/switch-exhaustiveness-check': 'error',
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
};

const layering = Object.entries(PROJECTS).flatMap(([name, project]) => [
  {
    files: [`${project.root}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', restrictedImportsFor(name, { spec: false })] },
  },
  {
    files: [`${project.root}/**/*.spec.ts`, `${project.root}/test/**/*.ts`, `${project.root}/src/**/test-support/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', restrictedImportsFor(name, { spec: true })] },
  },
]);

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
