#!/usr/bin/env node
'use strict';
// genswarms quick-start demo (`npm run demo`, add `-- --keep` to leave it running). Plain CommonJS so it
// runs on a fresh clone after `npm ci`: it builds what it needs, then drives everything through the
// `genswarms` CLI and the REST API on loopback. Every process is started with an argv array, no shell.
//
// Steps: build → private GENSWARMS_HOME under ./.genswarms-demo (0700) → mock LLM on loopback (unless
// GENSWARMS_LLM_ENDPOINT is set: then your model is used) → `genswarms doctor` decides whether worker-b
// can run in a bwrap sandbox with `network: isolated` → `genswarms up` → `genswarms start` → one task to
// the planner → wait (≤ 60 s) for the routed messages and the turns → print them → `genswarms down`.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO_DIR = path.join(ROOT, '.genswarms-demo');
const HOME = path.join(DEMO_DIR, 'home');
const CLI_BIN = path.join(ROOT, 'apps', 'cli', 'bin', 'genswarms.js');
const MOCK_BIN = path.join(ROOT, 'tools', 'bin', 'mock-llm.js');
const SWARM = 'demo';
const WORKERS = ['worker-a', 'worker-b'];
/** Bound on the whole conversation (task → workers → planner). */
const CONVERSATION_WAIT_MS = 60_000;
const MOCK_READY_WAIT_MS = 15_000;
const POLL_MS = 500;
const TASK = 'roll out genswarms to run coding agents on shared build machines';
/** Only these variables of the caller reach the CLI and the server (plus the genswarms ones set below). */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'USER', 'TMPDIR', 'GENSWARMS_API_TOKEN', 'DOCKER_HOST'];

class DemoError extends Error {}

const say = (line) => process.stdout.write(`[demo] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const isSet = (v) => typeof v === 'string' && v.trim() !== '';

function build() {
  say('building server, cli, agent and tools (nx run-many -t build)…');
  let nx;
  try {
    const pkg = path.join(ROOT, 'node_modules', 'nx', 'package.json');
    nx = path.join(path.dirname(pkg), JSON.parse(fs.readFileSync(pkg, 'utf8')).bin.nx);
  } catch {
    throw new DemoError('nx is not installed: run `npm ci` first');
  }
  const args = [nx, 'run-many', '-t', 'build', '-p', 'server', 'cli', 'agent', 'tools', '--output-style=static'];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: process.env, shell: false });
  if (r.status !== 0) throw new DemoError(`the build failed (exit ${r.status === null ? r.signal : r.status})`);
}

/** The CLI with the demo's environment; `capture` returns its output instead of showing it. */
function cli(args, env, capture = false) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: DEMO_DIR,
    env,
    shell: false,
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
  });
  return { code: r.status === null ? 1 : r.status, stdout: r.stdout || '', stderr: r.stderr || '' };
}

/**
 * A fresh private home: stop a server left by `--keep`, wipe the old home, recreate it 0700. The demo
 * directory is search-only for others (0711: nothing in it can be listed, its files are 0600) so that a root
 * server's agents, which run as the agent uid, can pass through to the 0710 home the server opens for them.
 */
function prepareHome(env) {
  fs.mkdirSync(DEMO_DIR, { recursive: true, mode: 0o711 });
  fs.chmodSync(DEMO_DIR, 0o711);
  fs.writeFileSync(path.join(DEMO_DIR, '.gitignore'), '*\n', { mode: 0o600 });
  if (fs.existsSync(HOME)) {
    cli(['down'], env, true);
    stopPid(path.join(DEMO_DIR, 'mock-llm.pid'));
    fs.rmSync(HOME, { recursive: true, force: true });
  }
  fs.mkdirSync(HOME, { mode: 0o700 });
  fs.chmodSync(HOME, 0o700);
}

function stopPid(pidFile) {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 1) process.kill(pid, 'SIGTERM');
  } catch {
    // no such file or process: nothing left to stop
  }
  fs.rmSync(pidFile, { force: true });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function baseEnv() {
  const env = {};
  for (const key of PASSED_ENV) if (isSet(process.env[key])) env[key] = process.env[key];
  return env;
}

async function answers(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** The mock LLM on loopback with the demo script; detached (with a pid file) when --keep. */
async function startMockLlm(keep) {
  const port = await freePort();
  const log = fs.openSync(path.join(DEMO_DIR, 'mock-llm.log'), 'a', 0o600);
  const args = [MOCK_BIN, '--port', String(port), '--host', '127.0.0.1', '--script', path.join(__dirname, 'mock-llm-script.json')];
  const child = spawn(process.execPath, args, {
    cwd: DEMO_DIR,
    env: { PATH: process.env.PATH || '/usr/bin:/bin' },
    shell: false,
    detached: keep,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  if (keep) {
    fs.writeFileSync(path.join(DEMO_DIR, 'mock-llm.pid'), `${child.pid}\n`, { mode: 0o600 });
    child.unref();
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + MOCK_READY_WAIT_MS;
  while (!(await answers(`${url}/v1/models`))) {
    if (exited || Date.now() > deadline) throw new DemoError('the mock LLM did not start; see .genswarms-demo/mock-llm.log');
    await sleep(100);
  }
  return { child, endpoint: `${url}/v1` };
}

/** `genswarms doctor --json`: can worker-b get a bwrap sandbox with `network: isolated` here? */
function probeSandbox(env) {
  const r = cli(['doctor', '--json'], env, true);
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    return { ok: false, reason: 'genswarms doctor did not answer' };
  }
  const bad = report.checks.filter((c) => (c.name === 'bwrap' || c.name === 'socat') && c.status !== 'ok');
  return bad.length === 0 ? { ok: true } : { ok: false, reason: bad.map((c) => `${c.name}: ${c.detail}`).join('; ') };
}

/** tools/demo/demo-swarm.json, with worker-b made a plain local agent when no sandbox is possible. */
function writeSwarmConfig(sandbox) {
  const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'demo-swarm.json'), 'utf8'));
  if (sandbox.ok) {
    say('worker-b runs in a bwrap sandbox with network: isolated (it can reach only the LLM, through a host-pinned forwarder)');
  } else {
    say(`worker-b runs as a plain local process instead of a bwrap sandbox, because ${sandbox.reason}`);
    say('  (install bubblewrap and socat ≥ 1.7.4 and allow unprivileged user namespaces to see the sandboxed variant)');
    const b = config.agents.find((a) => a.name === 'worker-b');
    b.backend = 'local';
    delete b.network;
  }
  const file = path.join(DEMO_DIR, 'demo-swarm.json');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return file;
}

async function api(env, route) {
  const headers = isSet(env.GENSWARMS_API_TOKEN) ? { authorization: `Bearer ${env.GENSWARMS_API_TOKEN}` } : {};
  const res = await fetch(`${env.GENSWARMS_URL}${route}`, { headers, signal: AbortSignal.timeout(10_000) });
  const body = await res.json();
  if (!res.ok) throw new DemoError(`GET ${route} answered ${res.status} ${body.error}: ${body.message}`);
  return body;
}

/** One look at the swarm: routed messages (oldest first), turns per agent, and any hard failure. */
async function observe(env) {
  const { messages } = await api(env, `/api/swarms/${SWARM}/messages?limit=100`);
  const turns = {};
  for (const agent of ['planner', ...WORKERS]) turns[agent] = (await api(env, `/api/swarms/${SWARM}/agents/${agent}/turns`)).turns;
  const { agents } = await api(env, `/api/swarms/${SWARM}/agents`);
  const broken = agents.filter((a) => a.state === 'failed' || a.state === 'needs_attention' || a.state === 'stopped');
  const badTurns = Object.entries(turns).flatMap(([agent, ts]) =>
    ts
      .filter((t) => ['error', 'rejected', 'timed_out'].includes(t.status))
      .map((t) => `${agent} turn ${t.status}${t.error ? `: ${t.error}` : ''}${t.reason ? ` (${t.reason})` : ''}`),
  );
  return { messages: [...messages].reverse(), turns, broken, badTurns };
}

/** Done when the planner routed to both workers, every worker turn finished, and every message sent to the planner was answered. */
function isConversationDone(seen) {
  const routed = (from, to) => seen.messages.some((m) => m.from === from && m.to === to);
  const completed = (agent) => seen.turns[agent].filter((t) => t.status === 'completed').length;
  const toPlanner = seen.messages.filter((m) => m.to === 'planner').length;
  const workersDone = WORKERS.every((w) => routed('planner', w) && completed(w) >= 1 && seen.turns[w].every((t) => t.status !== 'running'));
  return workersDone && completed('planner') >= 1 + toPlanner && seen.turns.planner.every((t) => t.status !== 'running');
}

async function waitForConversation(env) {
  const deadline = Date.now() + CONVERSATION_WAIT_MS;
  for (;;) {
    const seen = await observe(env);
    if (seen.broken.length > 0 || seen.badTurns.length > 0) {
      const why = [
        ...seen.broken.map((a) => `${a.name} is ${a.state}${a.needs_attention ? ` (${a.needs_attention.reason})` : ''}`),
        ...seen.badTurns,
      ];
      throw new DemoError(`the swarm hit a problem: ${why.join('; ')}`);
    }
    if (isConversationDone(seen)) return seen;
    if (Date.now() > deadline) {
      printResults(seen);
      throw new DemoError(
        `the conversation did not finish within ${CONVERSATION_WAIT_MS / 1000} s (with a real model, the planner may not have used SWARM_MSG blocks)`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** The reply text as the engine routes it: reply.md minus SWARM_MSG blocks (a preview may cut one short). */
function replyText(preview) {
  const text = String(preview || '').replace(/<<SWARM_MSG:[^>]*:START>>[\s\S]*?(<<SWARM_MSG:END>>|$)/g, ' ');
  return text.replace(/\s+/g, ' ').trim() || '(no reply text: only messages)';
}

function printResults(seen) {
  say('routed messages (oldest first):');
  for (const m of seen.messages) say(`  ${m.from} → ${m.to}: ${String(m.content_preview).replace(/\s+/g, ' ')}`);
  say('turns and final replies:');
  for (const [agent, ts] of Object.entries(seen.turns)) {
    for (const t of [...ts].reverse())
      say(`  ${agent}, ${t.from === '_operator' ? 'task' : `message from ${t.from}`}: ${t.status}: ${replyText(t.reply_preview)}`);
  }
}

function printHowToWatch(keep, env) {
  const gs = `GENSWARMS_HOME=${path.relative(ROOT, HOME)} GENSWARMS_URL=${env.GENSWARMS_URL} node apps/cli/bin/genswarms.js`;
  say(
    keep
      ? 'the swarm is still running (--keep). From the repository root:'
      : 'to watch a swarm live, run `npm run demo -- --keep`, then from the repository root:',
  );
  say(`  ${gs} logs ${SWARM} -f             # stream log entries`);
  say(`  ${gs} events -s ${SWARM} -f        # follow events`);
  say(`  ${gs} task ${SWARM} planner "…"    # send another task`);
  say(`  ${gs} attach ${SWARM} planner      # headless agents: their output stream; tmux agents (backend tmux): the pane, read-only`);
  if (keep) say(`  ${gs} down                       # stop the server (and: kill $(cat .genswarms-demo/mock-llm.pid) for the mock LLM)`);
}

function showServerLog() {
  try {
    const lines = fs.readFileSync(path.join(HOME, 'server.log'), 'utf8').trim().split('\n').slice(-15);
    say('last lines of .genswarms-demo/home/server.log:');
    for (const l of lines) process.stdout.write(`    ${l}\n`);
  } catch {
    // no log yet: the failure happened before the server started
  }
}

async function runSwarm(env) {
  say(`starting the server on ${env.GENSWARMS_URL} (genswarms up)…`);
  if (cli(['up', '--port', env.PORT], env).code !== 0) throw new DemoError('genswarms up failed');
  cli(['status'], env);
  say('starting the swarm (genswarms start)…');
  const started = cli(['start', writeSwarmConfig(probeSandbox(env))], env);
  if (started.code !== 0) throw new DemoError(`genswarms start failed (exit ${started.code})`);
  say(`sending the planner a task: "${TASK}"`);
  if (cli(['task', SWARM, 'planner', TASK], env).code !== 0) throw new DemoError('genswarms task failed');
  const seen = await waitForConversation(env);
  printResults(seen);
}

async function main() {
  const keep = process.argv.slice(2).includes('--keep');
  build();
  const port = String(await freePort());
  const env = { ...baseEnv(), GENSWARMS_HOME: HOME, GENSWARMS_URL: `http://127.0.0.1:${port}`, GENSWARMS_HTTP_IP: '127.0.0.1', PORT: port };
  prepareHome(env);
  let mock;
  if (isSet(process.env.GENSWARMS_LLM_ENDPOINT)) {
    say('using your model: GENSWARMS_LLM_ENDPOINT is set');
    env.GENSWARMS_LLM_ENDPOINT = process.env.GENSWARMS_LLM_ENDPOINT;
    if (isSet(process.env.GENSWARMS_LLM_API_KEY)) env.GENSWARMS_LLM_API_KEY = process.env.GENSWARMS_LLM_API_KEY;
  } else {
    mock = await startMockLlm(keep);
    env.GENSWARMS_LLM_ENDPOINT = mock.endpoint;
    say(`using the scripted mock LLM at ${mock.endpoint} (set GENSWARMS_LLM_ENDPOINT, and GENSWARMS_LLM_API_KEY, to use a real model)`);
  }
  let ok = false;
  try {
    await runSwarm(env);
    printHowToWatch(keep, env);
    ok = true;
  } finally {
    if (!ok) showServerLog();
    if (!keep || !ok) {
      say('stopping the server (genswarms down)…');
      cli(['down'], env);
      if (mock !== undefined) mock.child.kill('SIGTERM');
      fs.rmSync(path.join(DEMO_DIR, 'mock-llm.pid'), { force: true });
    }
  }
  say('demo finished: OK');
}

main().catch((err) => {
  process.stderr.write(`[demo] FAILED: ${err instanceof DemoError ? err.message : err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
