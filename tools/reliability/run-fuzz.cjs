#!/usr/bin/env node
'use strict';
// `npm run fuzz -- [--seed N] [--count N] [--count <target>=N] [--only <target>[,...]] [--results-dir DIR] [--list]`
// (docs/reliability.md "Fuzzing"). Every target is a normal jest spec (the same file `npm test` runs with a
// small count); here it runs with GENSWARMS_FUZZ_COUNT inputs (default 100,000) and GENSWARMS_FUZZ_SEED,
// and writes its figures to tools/reliability/results/fuzz/<target>.json. This script prints one table
// (inputs, seconds, failures, slowest input per target), writes tools/reliability/results/fuzz.json
// (the battery's format) and exits 1 when a target failed or did not report. `--results-dir` writes both
// elsewhere (the specs of this script). The seed's rule, and the default from the clock: fuzz-seed.cjs.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { FUZZ_SEED_MAX, fuzzSeedFromClock, parseFuzzSeed } = require('./fuzz-seed.cjs');

const ROOT = path.resolve(__dirname, '..', '..');
/** Where the rows (`fuzz.json`) and each target's figures (`fuzz/<target>.json`) go unless `--results-dir` says. */
const DEFAULT_RESULTS_DIR = path.join(__dirname, 'results');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const DEFAULT_COUNT = 100000;
/** Per-input CPU-time limit of the full run (a hang; wall limit 10×); the spec reads GENSWARMS_FUZZ_HANG_MS. */
const HANG_MS = 1000;

/** target -> the project whose jest config runs it and the spec file (repo-relative). */
const TARGETS = [
  { name: 'config-text', project: 'tools', spec: 'tools/src/fuzz/targets/config-text.fuzz.spec.ts' },
  { name: 'config-value', project: 'tools', spec: 'tools/src/fuzz/targets/config-value.fuzz.spec.ts' },
  { name: 'overlay-ops', project: 'tools', spec: 'tools/src/fuzz/targets/overlay-ops.fuzz.spec.ts' },
  { name: 'receipts', project: 'tools', spec: 'tools/src/fuzz/targets/receipts.fuzz.spec.ts' },
  { name: 'outbox', project: 'tools', spec: 'tools/src/fuzz/targets/outbox.fuzz.spec.ts' },
  { name: 'tmux-control', project: 'libs/runners', spec: 'libs/runners/src/lib/tmux/control-protocol.fuzz.spec.ts' },
  { name: 'rest', project: 'apps/server', spec: 'apps/server/test/fuzz-rest.spec.ts' },
  { name: 'socket', project: 'apps/server', spec: 'apps/server/test/fuzz-socket.spec.ts' },
  { name: 'server-env', project: 'apps/server', spec: 'apps/server/test/fuzz-server-env.spec.ts' },
  { name: 'agent-inbox', project: 'apps/agent', spec: 'apps/agent/src/lib/inbox/inbox-reader.fuzz.spec.ts' },
  { name: 'cli-argv', project: 'apps/cli', spec: 'apps/cli/test/fuzz-argv.spec.ts' },
];

function usage(message) {
  process.stderr.write(
    `fuzz: ${message}\nusage: npm run fuzz -- [--seed N] [--count N] [--count <target>=N] [--only <target>[,...]] [--results-dir DIR] [--list]\n`,
  );
  process.exit(2);
}

function positiveInt(text, what) {
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1) usage(`${what} must be a positive integer`);
  return Number(text);
}

function parseArgs(argv) {
  const envCount = process.env.GENSWARMS_FUZZ_COUNT;
  const opts = {
    seed: fuzzSeedFromClock(Date.now()),
    count: envCount === undefined ? DEFAULT_COUNT : positiveInt(envCount, 'GENSWARMS_FUZZ_COUNT'),
    perTarget: new Map(),
    only: null,
    list: false,
    resultsDir: DEFAULT_RESULTS_DIR,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--list') {
      opts.list = true;
      continue;
    }
    if (!['--seed', '--count', '--only', '--results-dir'].includes(arg)) usage(`unknown argument ${JSON.stringify(arg)}`);
    if (value === undefined) usage(`${arg} needs a value`);
    i += 1;
    if (arg === '--seed') opts.seed = parseFuzzSeed(value) ?? usage(`--seed must be an integer 1 … ${FUZZ_SEED_MAX}`);
    else if (arg === '--results-dir') opts.resultsDir = path.resolve(value);
    else if (arg === '--only') opts.only = (opts.only ?? []).concat(value.split(',').filter((s) => s !== ''));
    else if (value.includes('=')) {
      const [target, n] = value.split('=', 2);
      opts.perTarget.set(target, positiveInt(n, `--count ${target}`));
    } else opts.count = positiveInt(value, '--count');
  }
  const names = TARGETS.map((t) => t.name);
  for (const t of [...(opts.only ?? []), ...opts.perTarget.keys()]) {
    if (!names.includes(t)) usage(`unknown target ${JSON.stringify(t)}; known: ${names.join(', ')}`);
  }
  return opts;
}

function gitCommit() {
  const r = spawnSync('/usr/bin/git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', shell: false });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

/** Runs one target's spec through its project's jest; the spec writes `<targetDir>/<target>.json`. */
function runTarget(target, count, seed, targetDir) {
  const env = {
    ...process.env,
    GENSWARMS_FUZZ_COUNT: String(count),
    GENSWARMS_FUZZ_SEED: String(seed),
    GENSWARMS_FUZZ_HANG_MS: process.env.GENSWARMS_FUZZ_HANG_MS ?? String(HANG_MS),
    GENSWARMS_FUZZ_RESULTS_DIR: targetDir,
  };
  const args = [JEST, '-c', path.join(target.project, 'jest.config.cjs'), '--runInBand', '--testTimeout=86400000', target.spec];
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit', shell: false });
  return { status: r.status, signal: r.signal, seconds: (Date.now() - started) / 1000 };
}

function readTarget(name, since, targetDir) {
  const file = path.join(targetDir, `${name}.json`);
  if (!fs.existsSync(file) || fs.statSync(file).mtimeMs < since) return null;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null; // a torn or foreign file counts as "did not report" (a failing row below)
  }
}

/** The battery rows of one target (docs/reliability.md "Fuzzing": the criteria). */
function rowsOf(name, count, report, run) {
  if (report === null) {
    const exit = run.signal ? `signal ${run.signal}` : `exit ${run.status}`;
    return [{ target: name, measure: 'report', value: `no report (${exit})`, goal: 'a report', ok: false }];
  }
  const hangMs = report.hangMs ?? HANG_MS;
  return [
    { target: name, measure: 'inputs', value: report.inputs, goal: `>= ${count}`, ok: report.inputs >= count },
    { target: name, measure: 'failures', value: report.failures, goal: '0', ok: report.failures === 0 && run.status === 0 },
    {
      target: name,
      measure: 'most CPU for one input (ms)',
      value: Math.round(report.maxInputCpuMs),
      goal: `< ${hangMs}`,
      ok: report.maxInputCpuMs < hangMs,
    },
    {
      target: name,
      measure: 'slowest input, wall (ms)',
      value: Math.round(report.maxInputMs),
      goal: `< ${report.wallMs}`,
      ok: report.maxInputMs < report.wallMs,
    },
    { target: name, measure: 'seconds', value: Math.round(report.seconds), ok: true },
  ];
}

/**
 * results/fuzz.json after this run: the rows of the targets run now replace theirs; the other targets keep
 * the rows of their last run (`runs` says which run wrote which targets), so a run of only the slow
 * targets completes the table instead of erasing it.
 */
function mergeResults(run, rows, file) {
  let previous = { rows: [], runs: [] };
  try {
    previous = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    previous = { rows: [], runs: [] }; // first run, or a foreign file: start the table afresh
  }
  const kept = (previous.rows ?? []).filter((r) => !run.targets.includes(r.target));
  const runs = (previous.runs ?? []).map((r) => ({ ...r, targets: r.targets.filter((t) => !run.targets.includes(t)) }));
  const order = TARGETS.map((t) => t.name);
  const all = [...kept, ...rows].sort((a, b) => order.indexOf(a.target) - order.indexOf(b.target));
  return { suite: 'fuzz', date: run.date, commit: run.commit, rows: all, runs: [...runs.filter((r) => r.targets.length > 0), run] };
}

function pad(s, n) {
  return String(s).padEnd(n);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.list) {
    for (const t of TARGETS) process.stdout.write(`${t.name}: ${t.spec}\n`);
    return 0;
  }
  const targetDir = path.join(opts.resultsDir, 'fuzz');
  const rowsFile = path.join(opts.resultsDir, 'fuzz.json');
  fs.mkdirSync(targetDir, { recursive: true });
  const chosen = opts.only === null ? TARGETS : TARGETS.filter((t) => opts.only.includes(t.name));
  const rows = [];
  const summary = [];
  for (const target of chosen) {
    const count = opts.perTarget.get(target.name) ?? opts.count;
    process.stdout.write(`\n--- fuzz ${target.name}: ${count} inputs, seed ${opts.seed} ---\n`);
    const since = Date.now();
    const run = runTarget(target, count, opts.seed, targetDir);
    const report = readTarget(target.name, since, targetDir);
    rows.push(...rowsOf(target.name, count, report, run));
    summary.push({ name: target.name, count, report, run });
  }
  const loadavg = require('node:os')
    .loadavg()
    .map((l) => l.toFixed(1));
  const doc = mergeResults(
    { date: new Date().toISOString(), commit: gitCommit(), seed: opts.seed, loadavg, targets: chosen.map((t) => t.name) },
    rows,
    rowsFile,
  );
  fs.writeFileSync(rowsFile, `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`\n${pad('target', 14)} ${pad('inputs', 9)} ${pad('seconds', 8)} ${pad('failures', 9)} cpu-ms wall-ms\n`);
  for (const s of summary) {
    const r = s.report;
    const line =
      r === null
        ? `${pad(s.name, 14)} (no report: exit ${s.run.status})`
        : `${pad(s.name, 14)} ${pad(r.inputs, 9)} ${pad(Math.round(r.seconds), 8)} ${pad(r.failures, 9)} ${pad(Math.round(r.maxInputCpuMs), 6)} ${Math.round(r.maxInputMs)}`;
    process.stdout.write(`${line}\n`);
  }
  const bad = rows.filter((r) => !r.ok);
  process.stdout.write(
    `fuzz: seed ${opts.seed}; load average ${loadavg.join(' ')}; ${bad.length === 0 ? 'every target ok' : `${bad.length} row(s) not ok`}; wrote ${rowsFile.startsWith(ROOT + path.sep) ? path.relative(ROOT, rowsFile) : rowsFile}\n`,
  );
  return bad.length === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`fuzz: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
}
