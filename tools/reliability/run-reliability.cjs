#!/usr/bin/env node
'use strict';
// `npm run reliability [-- --only <suite>[,<suite>]] [--list]` (docs/reliability.md): runs every suite of
// suites.json in full mode (GENSWARMS_RELIABILITY=full plus the suite's fullEnv), one after the other.
// Each suite writes tools/reliability/results/<suite>.json = {suite, date, commit, rows:[{target, measure,
// value, goal?, ok}]}; this runner prints one table, writes results/latest.md and exits 1 when a suite
// failed, wrote no (or a stale or malformed) results file, or has a row that is not ok.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const SUITES_FILE = path.join(__dirname, 'suites.json');

function usage(message) {
  process.stderr.write(`reliability: ${message}\nusage: npm run reliability -- [--only <suite>[,<suite>...]] [--list]\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { only: null, list: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--list') opts.list = true;
    else if (arg === '--only') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) usage('--only needs a suite name');
      opts.only = (opts.only ?? []).concat(value.split(',').filter((s) => s !== ''));
      i += 1;
    } else usage(`unknown argument ${JSON.stringify(arg)}`);
  }
  return opts;
}

/** suites.json: [{name, command: argv array (argv[0] "node" or an absolute path), fullEnv?: {NAME: value}}]. */
function readSuites() {
  const suites = JSON.parse(fs.readFileSync(SUITES_FILE, 'utf8'));
  if (!Array.isArray(suites)) throw new Error('suites.json must be an array');
  for (const s of suites) {
    const okName = typeof s.name === 'string' && /^[a-z][a-z0-9-]*$/.test(s.name);
    const okCommand = Array.isArray(s.command) && s.command.length > 0 && s.command.every((w) => typeof w === 'string');
    if (!okName || !okCommand) throw new Error(`suites.json: bad entry ${JSON.stringify(s)}`);
    if (s.command[0] !== 'node' && !path.isAbsolute(s.command[0])) {
      throw new Error(`suites.json: ${s.name}: command[0] must be "node" or an absolute path (no shell, no PATH lookup)`);
    }
  }
  return suites;
}

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

function runSuite(suite) {
  const [bin, ...args] = suite.command;
  const env = { ...process.env, GENSWARMS_RELIABILITY: 'full', ...(suite.fullEnv ?? {}) };
  const started = Date.now();
  const r = spawnSync(bin === 'node' ? process.execPath : bin, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  return { status: r.status, signal: r.signal, error: r.error, seconds: (Date.now() - started) / 1000 };
}

/** The suite's results file if it was written by this run and is well formed, else a reason. */
function readResults(name, since) {
  const file = path.join(RESULTS_DIR, `${name}.json`);
  if (!fs.existsSync(file)) return { reason: `no ${path.relative(ROOT, file)}` };
  if (fs.statSync(file).mtimeMs < since) return { reason: `${path.relative(ROOT, file)} was not rewritten by this run` };
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Array.isArray(doc.rows)) return { reason: 'results file has no rows array' };
    return { doc };
  } catch (err) {
    return { reason: `results file is not JSON (${err.message})` };
  }
}

function cell(v) {
  return v === undefined || v === null ? '' : String(v).replace(/\|/g, '\\|');
}

function renderTable(rows) {
  const lines = ['| suite | target | measure | value | goal | ok |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| ${cell(r.suite)} | ${cell(r.target)} | ${cell(r.measure)} | ${cell(r.value)} | ${cell(r.goal)} | ${r.ok ? 'yes' : '**NO**'} |`,
    );
  }
  return lines.join('\n');
}

/** The rows of one suite: from this run (exit + fresh results file) or, when not run now, from its last results file. */
function suiteRows(suite, run, since) {
  const read = readResults(suite.name, run === undefined ? 0 : since);
  const rows = [];
  if (run !== undefined && run.exit !== 'exit 0') {
    rows.push({ target: '(suite)', measure: 'exit', value: run.exit, goal: 'exit 0', ok: false });
  }
  if (read.reason) rows.push({ target: '(suite)', measure: 'results', value: run === undefined ? 'not run yet' : read.reason, ok: false });
  else for (const r of read.doc.rows) rows.push({ ...r, ok: r.ok === true });
  const when = read.doc ? `${read.doc.date ?? '?'} @ ${String(read.doc.commit ?? '?').slice(0, 12)}` : '-';
  return { rows: rows.map((r) => ({ suite: suite.name, ...r })), when };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const all = readSuites();
  if (opts.list) {
    for (const s of all) process.stdout.write(`${s.name}: ${s.command.join(' ')}\n`);
    return 0;
  }
  const unknown = (opts.only ?? []).filter((n) => !all.some((s) => s.name === n));
  if (unknown.length > 0) usage(`unknown suite(s) ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const sections = [];
  let failedNow = 0;
  for (const suite of all) {
    if (opts.only !== null && !opts.only.includes(suite.name)) {
      sections.push({ suite, ...suiteRows(suite, undefined, 0), run: undefined });
      continue;
    }
    process.stdout.write(`\n=== reliability: ${suite.name} (${suite.command.join(' ')}) ===\n`);
    const since = Date.now();
    const raw = runSuite(suite);
    const exit = raw.error ? `spawn error ${raw.error.message}` : raw.signal ? `signal ${raw.signal}` : `exit ${raw.status}`;
    const run = { exit, seconds: raw.seconds };
    const section = { suite, ...suiteRows(suite, run, since), run };
    failedNow += section.rows.filter((r) => !r.ok).length;
    sections.push(section);
  }
  const rows = sections.flatMap((s) => s.rows);
  const table = renderTable(rows);
  const runsLine = sections
    .map((s) => `${s.suite.name}: ${s.run ? `run now, ${s.run.exit}, ${s.run.seconds.toFixed(0)} s` : `not run now, results of ${s.when}`}`)
    .join('; ');
  const notOk = rows.filter((r) => !r.ok).length;
  const header = [
    '# Reliability battery: last run',
    '',
    `Written ${new Date().toISOString()} at commit ${gitCommit()} (node ${process.version}, ${os.cpus().length} cores) by \`npm run reliability\` (tools/reliability/run-reliability.cjs).`,
    '',
    `Suites: ${runsLine || 'none registered'}.`,
    '',
    notOk === 0 ? 'Every row ok.' : `${notOk} row(s) NOT ok.`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), `${header}\n${table}\n`);
  process.stdout.write(
    `\n${table}\n\nreliability: ${failedNow === 0 ? 'all suites run now are ok' : `${failedNow} row(s) not ok in the suites run now`}; wrote tools/reliability/results/latest.md\n`,
  );
  return failedNow === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`reliability: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
}
