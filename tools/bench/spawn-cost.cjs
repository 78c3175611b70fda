#!/usr/bin/env node
'use strict';
// `node tools/bench/spawn-cost.cjs [count] [heapMiB]` (docs/benchmarks.md, Session 6): what one client spawn
// costs the server's main thread, Node's `child_process.spawn` (fork + exec on the main thread, which waits
// for the child's exec) against @genswarms/procctl `spawnDetached` (posix_spawn on a thread-pool thread),
// in the same process and run, alternating rounds. The process first holds `heapMiB` of live objects
// (the server at 1,000 agents: ~120-150 MiB). 4 spawns in flight, like the engine's launch slots.
// Printed per mode, per spawn: wall ms, the event loop's busy ms (perf_hooks ELU), this process's CPU ms (all
// threads, user + system: the fork's page-table copy and the copy-on-write faults after it) and minor faults.
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { spawnDetached } = require('@genswarms/procctl');

const COUNT = Number(process.argv[2] ?? 200);
const HEAP_MIB = Number(process.argv[3] ?? 120);
const IN_FLIGHT = 4;

const keep = [];
for (let i = 0; i < HEAP_MIB * 4000; i++) keep.push({ i, s: `agent-${i}`, a: [i, i + 1] });

function nodeSpawn() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/true', [], { shell: false, detached: true, cwd: '/', env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.stdout.resume();
    child.stderr.resume();
    child.once('exit', resolve);
  });
}

async function procctlSpawn() {
  const child = await spawnDetached({ file: '/bin/true', argv: ['/bin/true'], env: {}, cwd: '/' });
  child.stdout.resume();
  child.stderr.resume();
  await new Promise((resolve) => child.once('exit', resolve));
}

async function round(fn, count) {
  let next = 0;
  const elu0 = performance.eventLoopUtilization();
  const ru0 = process.resourceUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < count) await fn();
    }),
  );
  const wall = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const ru = process.resourceUsage();
  const cpuMs = (ru.userCPUTime - ru0.userCPUTime + ru.systemCPUTime - ru0.systemCPUTime) / 1000;
  return {
    wallMs: wall / count,
    busyMs: elu.active / count,
    cpuMs: cpuMs / count,
    minorFaults: (ru.minorPageFault - ru0.minorPageFault) / count,
  };
}

async function main() {
  const rounds = { node: [], procctl: [] };
  for (let r = 0; r < 4; r++) {
    rounds.node.push(await round(nodeSpawn, COUNT / 4));
    rounds.procctl.push(await round(procctlSpawn, COUNT / 4));
  }
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  const load = require('node:os').loadavg()[0].toFixed(1);
  const mean = (xs, k) => xs.reduce((s, x) => s + x[k], 0) / xs.length;
  const summary = (xs) => ({
    wallMsPerSpawn: mean(xs, 'wallMs'),
    mainThreadBusyMsPerSpawn: mean(xs, 'busyMs'),
    processCpuMsPerSpawn: mean(xs, 'cpuMs'),
    minorFaultsPerSpawn: mean(xs, 'minorFaults'),
  });
  const out = {
    count: COUNT,
    rssMib: rss,
    load1: Number(load),
    node: summary(rounds.node),
    procctl: summary(rounds.procctl),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  void keep;
}

main().catch((e) => {
  process.stderr.write(`spawn-cost: ${e && e.stack ? e.stack : String(e)}\n`);
  process.exit(1);
});
