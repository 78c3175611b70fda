#!/usr/bin/env node
'use strict';
// `node tools/bench/store-hop.cjs <before engine dist> <after engine dist> [dirs]` (docs/benchmarks.md, Session 6):
// the store work of one routed ring hop — before: 10 commits (each write, then its event); after: 6 (the event
// in its write's transaction, EventAlong) — with two builds of libs/engine in one process, interleaved rounds of
// 1,000 hops, 100 agents, on each directory (default /dev/shm,/tmp). Prints CPU and wall µs per hop and the CPU
// ratio after/before; a `dist` without EventAlong ignores the extra argument, so pass the older build first.
const fs = require('node:fs');
const path = require('node:path');
const [beforeDist, afterDist, dirs] = process.argv.slice(2);
if (beforeDist === undefined || afterDist === undefined) {
  process.stderr.write('usage: store-hop.cjs <before libs/engine/dist> <after libs/engine/dist> [dir,dir]\n');
  process.exit(2);
}
const builds = { before: require(path.resolve(beforeDist)).SqliteStore, after: require(path.resolve(afterDist)).SqliteStore };
const NOW = new Date().toISOString();
const ev = (type, agent, metadata) => ({
  timestamp: NOW,
  level: 'info',
  category: 'agent',
  swarm: 'ring',
  agent,
  event_type: type,
  message: `${type} of ${agent}`,
  metadata,
});
async function setup(Store, dir) {
  const home = fs.mkdtempSync(path.join(dir, 'gs-hop-'));
  const store = Store.open(home);
  for (let i = 0; i < 100; i++)
    await store.upsertSession({
      swarm: 'ring',
      agent: `a${i}`,
      state: 'idle',
      needsAttention: null,
      description: null,
      workspace: null,
      startedAt: NOW,
      lastActivity: NOW,
    });
  return { store, home, n: 0 };
}
async function hops(kind, s, count) {
  const { store } = s;
  for (let k = 0; k < count; k++) {
    const n = s.n++;
    const a = `a${n % 100}`;
    const b = `a${(n + 1) % 100}`;
    const item = `i${n}`;
    const turn = `t${n}`;
    const along = (e) => ({ make: () => e, stored: null });
    if (kind === 'before') {
      await store.enqueue({ swarm: 'ring', agent: b, id: item, kind: 'message', from: a, content: 'x', now: NOW, limit: 1000 });
      await store.insertEvent(ev('message_delivered', b, { from: a, to: b, item_id: item }));
      await store.dispatchNext({ swarm: 'ring', agent: b, turnId: turn, now: NOW, messagesOnly: false });
      await store.insertEvent(ev('turn_started', b, { turn, item_id: item, from: a }));
      await store.markTurnDelivered(turn);
      await store.finishTurn(turn, { status: 'completed', replyPreview: 'r', reply: 'r', completedAt: NOW });
      await store.insertEvent(ev('turn_completed', b, { turn, receipt_latency_ms: 1 }));
      await store.appendMessage({ timestamp: NOW, swarm: 'ring', from: b, to: a, type: 'direct', content_preview: 'p', turn });
      await store.insertEvent(ev('message_routed', b, { from: b, to: a, type: 'direct', content_preview: 'p', turn }));
      await store.setSessionState('ring', b, 'idle', null, NOW);
    } else {
      await store.enqueue(
        { swarm: 'ring', agent: b, id: item, kind: 'message', from: a, content: 'x', now: NOW, limit: 1000 },
        along(ev('message_delivered', b, { from: a, to: b, item_id: item })),
      );
      await store.dispatchNext(
        { swarm: 'ring', agent: b, turnId: turn, now: NOW, messagesOnly: false },
        along(ev('turn_started', b, { turn, item_id: item, from: a })),
      );
      await store.markTurnDelivered(turn);
      await store.finishTurn(
        turn,
        { status: 'completed', replyPreview: 'r', reply: 'r', completedAt: NOW },
        along(ev('turn_completed', b, { turn, receipt_latency_ms: 1 })),
      );
      await store.appendMessage(
        { timestamp: NOW, swarm: 'ring', from: b, to: a, type: 'direct', content_preview: 'p', turn },
        along(ev('message_routed', b, { from: b, to: a, type: 'direct', content_preview: 'p', turn })),
      );
      await store.setSessionState('ring', b, 'idle', null, NOW);
    }
  }
}
(async () => {
  for (const dir of (dirs || '/dev/shm,/tmp').split(',')) {
    const s = { before: await setup(builds.before, dir), after: await setup(builds.after, dir) };
    for (const k of ['before', 'after']) await hops(k, s[k], 1500); // warm-up, log past MESSAGE_LOG_KEEP
    const acc = { before: [0, 0, 0], after: [0, 0, 0] };
    for (let r = 0; r < 6; r++)
      for (const k of r % 2 ? ['after', 'before'] : ['before', 'after']) {
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await hops(k, s[k], 1000);
        const c = process.cpuUsage(c0);
        acc[k][0] += c.user + c.system;
        acc[k][1] += Number(process.hrtime.bigint() - t0) / 1e3;
        acc[k][2] += 1000;
      }
    const f = (k) => `${(acc[k][0] / acc[k][2]).toFixed(0)} µs CPU, ${(acc[k][1] / acc[k][2]).toFixed(0)} µs wall`;
    console.log(
      `${dir}: before ${f('before')} | after ${f('after')} | CPU ratio after/before ${(acc.after[0] / acc.before[0]).toFixed(2)} | load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    for (const k of ['before', 'after']) {
      await s[k].store.close();
      fs.rmSync(s[k].home, { recursive: true, force: true });
    }
  }
})();
