/**
 * Hostile agents (/bin/sh clients on the local and bwrap backends) against a real server process.
 * One floods stdout (100 MB, in lines and as one endless line), one forks until its `pids_limit`, one never
 * writes a receipt, one writes receipts for turns it was never given, one deletes its own workspace. The server
 * keeps answering — API latency is sampled during the flood (GET /api/swarms, GET agent status; p99 reported,
 * a generous bound asserted in npm test, < 100 ms in full mode) — and each session ends in its documented state.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOnce, freePort } from '@genswarms/tools';
import {
  FULL,
  ServerUnderTest,
  agentRoots,
  allEvents,
  headlessClient,
  recordFigures,
  sendTask,
  turnsOf,
  waitState,
} from './support/fault-kit';
import type { FigureRow, Row } from './support/fault-kit';
import { waitFor } from './support/engine-server';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
/** 100 MB in full mode; npm test floods 20 MB (same code path, a fifth of the time). */
const FLOOD_BYTES = (FULL ? 100 : 20) * 1024 * 1024;
/** npm test on a loaded 2-core box: only a generous bound; the 100 ms is checked in full mode. */
const P99_BOUND_MS = FULL ? 100 : 2000;

let base: string;
let srv: ServerUnderTest;
const figures: FigureRow[] = [];
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-hostile-')));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid, below this directory
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
  srv = new ServerUnderTest(MAIN, base, await freePort());
  await srv.start();
}, 620_000);

afterAll(async () => {
  keepAlive.destroy();
  for (const swarm of ['flood', 'line', 'forks', 'silent', 'forger', 'wiper']) {
    await request(srv.url)
      .delete(`/api/swarms/${swarm}`)
      .catch(() => undefined);
  }
  await srv.kill();
  rmSync(base, { recursive: true, force: true });
  recordFigures('fault-hostile-agents', figures);
});

/** One GET, timed from the request to the last byte (keep-alive: no connect in the figure). */
function timedGet(url: string): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    get(url, { agent: keepAlive }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () =>
        res.statusCode === 200 ? done(Number(process.hrtime.bigint() - t0) / 1e6) : fail(new Error(`${url}: ${res.statusCode}`)),
      );
    }).on('error', fail);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Samples both routes until `until()` holds (and at least `min` samples); returns sorted latencies in ms. */
async function sampleLatency(swarm: string, until: () => boolean, min: number): Promise<number[]> {
  const out: number[] = [];
  const routes = [`${srv.url}/api/swarms`, `${srv.url}/api/swarms/${swarm}/agents/a`];
  for (let i = 0; out.length < min || !until(); i++) {
    out.push(await timedGet(routes[i % 2] as string));
    if (out.length > 200_000) break;
  }
  return out.sort((x, y) => x - y);
}

function serverRssMiB(): number {
  const status = readFileSync(`/proc/${String(srv.child?.pid)}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startSwarm(swarm: string, agent: Row): Promise<request.Response> {
  return request(srv.url)
    .post('/api/swarms')
    .send({ config: { name: swarm, agents: [{ name: 'a', ...agent }] } });
}

function shClient(script: string): Row {
  return { client: { command: ['/bin/sh', '-c', script] } };
}

const workspaceOf = (swarm: string): string => join(base, 'home', 'workspaces', swarm, 'a');

describe('hostile agents: the server stays responsive and each session ends in a documented state', () => {
  let baseline: number[] = [];

  it('baseline: API latency with a quiet agent', async () => {
    expect(
      (
        await startSwarm('flood', {
          backend: { type: 'local' },
          ...shClient(`
while [ ! -e "$GENSWARMS_WORKSPACE/go" ]; do sleep 0.1; done
/usr/bin/yes 'hostile flood line 0123456789abcdef' | /usr/bin/head -c ${FLOOD_BYTES}
: > "$GENSWARMS_WORKSPACE/flood.done"
${headlessClient(0)}`),
        })
      ).status,
    ).toBe(201);
    await waitState(srv, 'flood', 'a', ['idle']);
    baseline = await sampleLatency('flood', () => true, 400);
    figures.push({ target: 'API latency, quiet agent', measure: 'p99 ms', value: round(percentile(baseline, 99)), ok: true });
  }, 120_000);

  it.each([
    ['flood', 'in lines'],
    ['line', 'as one line without a newline'],
  ])(
    'an agent that floods stdout (100 MB in full mode) %s (%s): p99 bounded, output bounded, the agent still takes a task',
    async (swarm) => {
      if (swarm === 'line') {
        const started = await startSwarm('line', {
          backend: { type: 'local' },
          ...shClient(`
while [ ! -e "$GENSWARMS_WORKSPACE/go" ]; do sleep 0.1; done
/usr/bin/head -c ${FLOOD_BYTES} /dev/zero | /usr/bin/tr '\\0' x
echo
: > "$GENSWARMS_WORKSPACE/flood.done"
${headlessClient(0)}`),
        });
        expect(started.status).toBe(201);
        await waitState(srv, 'line', 'a', ['idle']);
      }
      const ws = workspaceOf(swarm);
      const rssBefore = serverRssMiB();
      const t0 = Date.now();
      spawnSync('/usr/bin/touch', [join(ws, 'go')], { shell: false });
      const during = await sampleLatency(swarm, () => existsSync(join(ws, 'flood.done')), 50);
      const floodS = (Date.now() - t0) / 1000;
      const p99 = percentile(during, 99);
      const rssAfter = serverRssMiB();
      const logs = (await request(srv.url).get(`/api/swarms/${swarm}/agents/a/logs`)).body.logs as Row[];
      expect(logs.length).toBeLessThanOrEqual(500);
      for (const l of logs) expect(String(l['line']).length).toBeLessThanOrEqual(65536);
      // what the server keeps of one agent's output is bounded in characters too, not only in lines (one-line flood: 500 × 64 Ki)
      expect(logs.reduce((n, l) => n + String(l['line']).length, 0)).toBeLessThanOrEqual(1024 * 1024 + 65536);
      const st = await waitState(srv, swarm, 'a', ['idle']);
      expect(st['state']).toBe('idle');
      const id = await sendTask(srv.url, swarm, 'a', 'after the flood');
      await waitFor(
        async () => (await turnsOf(srv.url, swarm, 'a')).some((t) => t['item_id'] === id && t['status'] === 'completed'),
        `${swarm} task after flood`,
        { timeoutMs: 60_000 },
      );
      const target = `stdout flood ${FLOOD_BYTES / 1048576} MiB ${swarm === 'flood' ? 'in lines' : 'one line'} (local)`;
      figures.push(
        { target, measure: 'API p99 ms during flood', value: round(p99), goal: '< 100', ok: p99 < 100 },
        { target, measure: 'API p50 ms during flood', value: round(percentile(during, 50)), ok: true },
        { target, measure: 'API p99 ms quiet (same run)', value: round(percentile(baseline, 99)), ok: true },
        { target, measure: 'samples during flood', value: during.length, ok: during.length >= 50 },
        { target, measure: 'flood seconds', value: round(floodS), ok: true },
        { target, measure: 'server RSS MiB after (before)', value: round(rssAfter), goal: `before ${round(rssBefore)}`, ok: true },
      );
      console.log(
        `${target}: ${during.length} samples over ${floodS.toFixed(1)} s, p50 ${percentile(during, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${during[during.length - 1]?.toFixed(1)} ms; quiet p99 ${percentile(baseline, 99).toFixed(1)} ms; RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`,
      );
      expect(p99).toBeLessThan(P99_BOUND_MS);
    },
    300_000,
  );

  it('an agent that forks until its pids_limit (bwrap) dies at its limit: agent failed (process_exited), nothing left running', async () => {
    const started = await startSwarm('forks', {
      backend: { type: 'bwrap' },
      config: { pids_limit: 16 },
      ...shClient('while :; do /bin/sleep 600 & done'),
    });
    if (started.status === 400 && ['limits_unsupported', 'binary_missing'].includes(String(started.body.error))) {
      console.warn(`skipped: bwrap pids_limit on this host: ${String(started.body.error)} ${String(started.body.message)}`);
      return;
    }
    expect(started.status).toBe(201);
    let done = false;
    const sampling = sampleLatency('forks', () => done, 20);
    const st = await waitState(srv, 'forks', 'a', ['failed'], 60_000).finally(() => (done = true));
    const during = await sampling;
    expect((st['failure'] as Row | null)?.['code']).toBe('process_exited');
    const failed = await allEvents(srv.url, 'forks', 'agent_failed');
    expect(failed.length).toBe(1);
    await request(srv.url).delete('/api/swarms/forks').expect(200);
    await waitFor(async () => !agentRoots('forks').has('a'), 'no process of forks left', { timeoutMs: 20_000 });
    figures.push(
      {
        target: 'fork loop under pids_limit 16 (bwrap)',
        measure: 'API p99 ms during',
        value: round(percentile(during, 99)),
        goal: '< 100',
        ok: percentile(during, 99) < 100,
      },
      { target: 'fork loop under pids_limit 16 (bwrap)', measure: 'processes left after stop', value: 0, goal: '0', ok: true },
    );
  }, 120_000);

  it('an agent that never writes a receipt: turn timed_out (turn_timeout), agent busy until restarted, then idle', async () => {
    expect(
      (
        await startSwarm('silent', {
          backend: { type: 'local' },
          turn_timeout_ms: 1500,
          ...shClient('while :; do sleep 1; done'),
        })
      ).status,
    ).toBe(201);
    await waitState(srv, 'silent', 'a', ['idle']);
    const id = await sendTask(srv.url, 'silent', 'a', 'never answered');
    await waitFor(async () => (await allEvents(srv.url, 'silent', 'turn_timeout')).length === 1, 'turn_timeout', { timeoutMs: 30_000 });
    const turn = (await turnsOf(srv.url, 'silent', 'a')).find((t) => t['item_id'] === id);
    expect(turn?.['status']).toBe('timed_out');
    expect((await request(srv.url).get('/api/swarms/silent/agents/a')).body.state).toBe('busy'); // docs/messaging.md "Timeouts"
    await request(srv.url).post('/api/swarms/silent/agents/a/restart').expect(200);
    await waitState(srv, 'silent', 'a', ['idle']);
    figures.push({
      target: 'agent that never writes a receipt (local)',
      measure: 'turn timed_out, agent restartable',
      value: 1,
      goal: '1',
      ok: true,
    });
  }, 120_000);

  it('an agent that writes receipts for turns it was never given: nothing of them is recorded; its real turn completes once', async () => {
    const forge = `
T="$GENSWARMS_TURNS_DIR"
for t in forged1 forged2 zzzzzzzzzzzzzzzzzzzzzzzzzz; do
  mkdir -p "$T/$t" && printf 'forged' > "$T/$t/reply.md" && printf '{"v":1,"turn":"%s","status":"ok"}' "$t" > "$T/$t/done.json"
done
${headlessClient(0)}`;
    expect((await startSwarm('forger', { backend: { type: 'local' }, ...shClient(forge) })).status).toBe(201);
    await waitState(srv, 'forger', 'a', ['idle']);
    await waitFor(
      async () => existsSync(join(workspaceOf('forger'), '.genswarms', 'turns', 'forged2', 'done.json')),
      'forged receipts written',
    );
    const id = await sendTask(srv.url, 'forger', 'a', 'real work');
    await waitFor(
      async () => (await turnsOf(srv.url, 'forger', 'a')).some((t) => t['item_id'] === id && t['status'] === 'completed'),
      'real turn',
      { timeoutMs: 30_000 },
    );
    const turns = await turnsOf(srv.url, 'forger', 'a');
    expect(turns).toHaveLength(1);
    for (const t of ['forged1', 'forged2', 'zzzzzzzzzzzzzzzzzzzzzzzzzz'])
      expect((await request(srv.url).get(`/api/swarms/forger/agents/a/turns/${t}`)).status).toBe(404);
    const events = await allEvents(srv.url, 'forger');
    expect(events.filter((e) => JSON.stringify(e).includes('forged'))).toEqual([]);
    expect((await allEvents(srv.url, 'forger', 'turn_completed')).length).toBe(1);
    expect((await request(srv.url).get('/api/swarms/forger/agents/a')).body.state).toBe('idle');
    figures.push({ target: 'receipts for turns never given (local)', measure: 'forged receipts recorded', value: 0, goal: '0', ok: true });
  }, 120_000);

  it('an agent that deletes its own workspace: its next turn is refused (needs_attention), the server and other swarms go on', async () => {
    // the agent cannot remove the directory itself (its parent is the server's): it empties it, again and again
    const wipe = `while :; do rm -rf "$GENSWARMS_WORKSPACE"/.genswarms "$GENSWARMS_WORKSPACE"/.inbox "$GENSWARMS_WORKSPACE"/*; : > "$GENSWARMS_WORKSPACE/wiped"; sleep 0.05; done`;
    expect((await startSwarm('wiper', { backend: { type: 'local' }, ...shClient(wipe) })).status).toBe(201);
    await waitState(srv, 'wiper', 'a', ['idle']);
    await waitFor(async () => existsSync(join(workspaceOf('wiper'), 'wiped')), 'workspace emptied');
    await sendTask(srv.url, 'wiper', 'a', 'into the void');
    const st = await waitState(srv, 'wiper', 'a', ['needs_attention', 'failed'], 30_000);
    expect(st['state']).toBe('needs_attention');
    const reason = String((st['needs_attention'] as Row)['reason']);
    expect(reason).toMatch(/^receipt_|^inbox_/);
    const id = await sendTask(srv.url, 'forger', 'a', 'unaffected');
    await waitFor(
      async () => (await turnsOf(srv.url, 'forger', 'a')).some((t) => t['item_id'] === id && t['status'] === 'completed'),
      'other swarm',
      { timeoutMs: 30_000 },
    );
    figures.push({
      target: `agent that deletes its workspace (local): needs_attention ${reason}`,
      measure: 'server answered, other swarm ran',
      value: 1,
      goal: '1',
      ok: true,
    });
  }, 120_000);
});

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
