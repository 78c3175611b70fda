/**
 * Dashboard benchmark (not part of `npm test`): `npm run bench -w @genswarms/dashboard` after a build.
 * Prints figures; asserts nothing about time.
 * 1. Real server: a 1,000-agent mock swarm; time to first render of its swarm page in Chromium, then frame
 *    times while tasks drive events through the server (as fast as this machine's server stores them).
 * 2. Push fixture: the same page fed 500 pushes/s (events and agent status changes) over socket.io, to
 *    measure the page alone at the rate.
 */
import type { Page } from 'puppeteer-core';
import { openBrowser } from '../test/support/browser';
import { startServerProcess } from '../test/support/server-process';
import { startPushFixture } from './push-fixture';

const TOKEN = 'dashboard-bench-token';
const AGENTS = Number(process.env['BENCH_AGENTS'] ?? 1000);
const PUSHES_PER_S = Number(process.env['BENCH_PUSHES_PER_S'] ?? 500);
const MEASURE_MS = Number(process.env['BENCH_MEASURE_MS'] ?? 10000);
/** Task requests per second offered to the real server (each stores about 3 events and pushes more). */
const TASKS_PER_S = 170;
/** Concurrent task requests (the server's rate, not the driver's, should be the limit). */
const MAX_IN_FLIGHT = 64;

async function rest(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Logs in with `token`, then measures navigation → all agents counted and the first rows drawn. */
async function firstRender(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/ui/`, { waitUntil: 'networkidle0' });
  await page.type('#token', token);
  await page.click('form button[type=submit]');
  await page.waitForSelector('#swarms');
  await page.goto('about:blank');
  const nav = Date.now();
  await page.goto(`${url}/ui/#/swarms/bench`);
  await page.waitForFunction(
    (n: number) =>
      document.querySelector('#agent-counts')?.textContent?.includes(`idle: ${n}`) === true &&
      document.querySelectorAll('#agents tr[data-agent]').length > 0,
    { polling: 'raf', timeout: 60000 },
    AGENTS,
  );
  const ms = Date.now() - nav;
  const drawn = await page.$$eval('#agents tr[data-agent]', (els) => els.length);
  console.log(`  time to first render: ${ms} ms (${drawn} of ${AGENTS} rows in the DOM)`);
}

/** Frame deltas (requestAnimationFrame) in the page while `drive` runs. */
async function recordFrames(page: Page, drive: () => Promise<void>): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number): void => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const m0 = await page.metrics();
  const t0 = Date.now();
  await drive();
  const m1 = await page.metrics();
  const secs = (Date.now() - t0) / 1000;
  const busy = (k: 'ScriptDuration' | 'TaskDuration'): string => ((((m1[k] ?? 0) - (m0[k] ?? 0)) / secs) * 100).toFixed(1);
  // Less sensitive to other load on the machine than frame times: the page's own main-thread work.
  console.log(`  page main thread: scripts ${busy('ScriptDuration')}% and all tasks ${busy('TaskDuration')}% of wall time`);
  const frames = (await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames.slice(1);
  })) as number[];
  const sorted = [...frames].sort((a, b) => a - b);
  const f = (p: number): string => percentile(sorted, p).toFixed(1);
  console.log(
    `  frame time over ${frames.length} frames: p50 ${f(50)} ms, p95 ${f(95)} ms, p99 ${f(99)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms`,
  );
}

async function benchRealServer(page: Page): Promise<void> {
  console.log(`real server, ${AGENTS} mock agents:`);
  const server = await startServerProcess({ GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_MAX_AGENTS_PER_SWARM: String(AGENTS) });
  try {
    const names = Array.from({ length: AGENTS }, (_, i) => `a${String(i).padStart(4, '0')}`);
    const t0 = Date.now();
    await rest(server.url, 'POST', '/api/swarms', {
      config: { name: 'bench', agents: names.map((name) => ({ name, backend: { type: 'mock', opts: { replies: ['ok'] } } })) },
    });
    for (;;) {
      const { agents } = (await rest(server.url, 'GET', '/api/swarms/bench/agents')) as { agents: { state: string }[] };
      if (agents.filter((r) => r.state === 'idle').length === AGENTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`  swarm idle after ${Date.now() - t0} ms`);
    await firstRender(page, server.url, TOKEN);
    const last = async (): Promise<number> =>
      ((await rest(server.url, 'GET', '/api/swarms/bench/events?limit=1')) as { events: { id: number }[] }).events[0]?.id ?? 0;
    const before = await last();
    const start = Date.now();
    await recordFrames(page, async () => {
      let sent = 0;
      let inFlight = 0;
      while (Date.now() - start < MEASURE_MS) {
        const due = Math.floor(((Date.now() - start) / 1000) * TASKS_PER_S);
        for (; sent < due && inFlight < MAX_IN_FLIGHT; sent++) {
          inFlight++;
          void rest(server.url, 'POST', `/api/swarms/bench/agents/${names[sent % AGENTS] ?? 'a0000'}/task`, { task: `t${sent}` })
            .catch(() => undefined) // best-effort: a refused task only lowers the rate, which is printed
            .finally(() => inFlight--);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    });
    const secs = (Date.now() - start) / 1000;
    const stored = (await last()) - before;
    console.log(
      `  events stored and pushed: ${stored} in ${secs.toFixed(1)} s (${(stored / secs).toFixed(0)} events/s; pushes per event ≥ 1)`,
    );
  } finally {
    await page.goto('about:blank'); // leave before the server stops, so its socket does not log a refusal
    await server.stop(TOKEN);
  }
}

async function benchPushFixture(page: Page): Promise<void> {
  console.log(`push fixture, ${AGENTS} agents, ${PUSHES_PER_S} pushes/s:`);
  const fixture = await startPushFixture(AGENTS);
  try {
    await firstRender(page, fixture.url, '');
    const start = Date.now();
    await recordFrames(page, async () => {
      fixture.startPushing(PUSHES_PER_S);
      await new Promise((r) => setTimeout(r, MEASURE_MS));
    });
    const secs = (Date.now() - start) / 1000;
    console.log(`  pushes sent: ${fixture.pushed()} in ${secs.toFixed(1)} s (${(fixture.pushed() / secs).toFixed(0)}/s)`);
  } finally {
    await page.goto('about:blank');
    await fixture.close();
  }
}

async function main(): Promise<void> {
  const s = await openBrowser();
  try {
    if (process.env['BENCH_MODE'] !== 'fixture') await benchRealServer(s.page);
    if (process.env['BENCH_MODE'] !== 'server') await benchPushFixture(s.page);
    if (s.problems.length > 0) console.log(`page problems: ${JSON.stringify(s.problems.slice(0, 5))}`);
  } finally {
    await s.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
