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
  // CI only: once every test has reported, exit even if a handle is still open. One in-band engine run in CI
  // stayed alive after all 371 tests passed (not reproduced in 5 local runs); a leak must not turn a green
  // run red at the watchdog. Locally jest still waits and prints "did not exit", so leaks stay visible.
  forceExit: process.env.CI === 'true',
};
