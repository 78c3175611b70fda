/**
 * Writes one JSON summary per jest project to <workspace>/.jest-results/, so .ci/run can print
 * the plain `N passed, N failed` line over every project.
 */
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(globalConfig, _options, context) {
    this.rootDir = (context && context.config && context.config.rootDir) || process.cwd();
    this.name = (context && context.config && context.config.displayName && context.config.displayName.name) || path.basename(this.rootDir);
  }
  onRunComplete(_contexts, results) {
    const dir = path.join(__dirname, '..', '..', '.jest-results');
    fs.mkdirSync(dir, { recursive: true });
    const summary = {
      project: this.name,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    fs.writeFileSync(path.join(dir, `${this.name.replace(/[^a-zA-Z0-9_-]/g, '_')}.json`), JSON.stringify(summary));
  }
}
module.exports = SummaryReporter;
