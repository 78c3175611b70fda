// Flat ESLint config. The layering of DESIGN.md / HOUSE-STYLE rules 3-5 is enforced here with
// per-project `no-restricted-imports`, plus the local `genswarms/*` rules in tools/eslint-rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const genswarms = require('./tools/eslint-rules/index.cjs');
const { PROJECTS, restrictedImportsFor } = require('./tools/eslint-rules/layering.cjs');

/** Rules that need type information: applied to project sources only. */
export const TYPED_RULES = {
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

export default tseslint.config(
  { ignores: ['**/dist/**', '**/out-tsc/**', '**/node_modules/**', '**/*.cjs', '**/*.js', 'tools/eslint-rules/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
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
);
