/** Shared jest preset: swc transform, source condition (no build needed), summary reporter for CI. */
const path = require('node:path');
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testEnvironmentOptions: { customExportConditions: ['@genswarms/source', 'node', 'require', 'default'] },
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  testTimeout: 30000,
};
