/**
 * Dashboard benchmark (not part of `npm test`): `npm run bench -w @genswarms/dashboard` after a build.
 * A real server with one 1,000-agent mock swarm, the swarm page in Chromium: prints the time to first
 * render (navigation → 1,000 agents counted and the first rows drawn) and the frame times while tasks
 * drive about 500 events/s through the server to the page. Prints figures; asserts nothing about time.
 */
import { openBrowser } from '../test/support/browser';
import { startServerProcess } from '../test/support/server-process';

const TOKEN = 'dashboard-bench-token';
const AGENTS = Number(process.env['BENCH_AGENTS'] ?? 1000);
const EVENTS_PER_S = Number(process.env['BENCH_EVENTS_PER_S'] ?? 500);
const MEASURE_MS = Number(process.env['BENCH_MEASURE_MS'] ?? 10000);
/** Stored events one mock task produces (task_sent, turn_started, turn_completed) — measured below, not assumed. */
const EVENTS_PER_TASK_GUESS = 3;
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

async function main(): Promise<void> {
  const server = await startServerProcess({ GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_MAX_AGENTS_PER_SWARM: String(AGENTS) });
  const s = await openBrowser();
  try {
    const agents = Array.from({ length: AGENTS }, (_, i) => ({
      name: `a${String(i).padStart(4, '0')}`,
      backend: { type: 'mock', opts: { replies: ['ok {{content}}'] } },
    }));
    const t0 = Date.now();
    await rest(server.url, 'POST', '/api/swarms', { config: { name: 'bench', agents } });
    for (;;) {
      const { agents: rows } = (await rest(server.url, 'GET', '/api/swarms/bench/agents')) as { agents: { state: string }[] };
      if (rows.filter((r) => r.state === 'idle').length === AGENTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`swarm of ${AGENTS} mock agents idle after ${Date.now() - t0} ms`);

    const page = s.page;
    await page.goto(`${server.url}/ui/`, { waitUntil: 'networkidle0' });
    await page.type('#token', TOKEN);
    await page.click('form button[type=submit]');
    await page.waitForSelector('#swarms');
    await page.goto('about:blank');
    const nav = Date.now();
    await page.goto(`${server.url}/ui/#/swarms/bench`);
    await page.waitForFunction(
      (n: number) =>
        document.querySelector('#agent-counts')?.textContent?.includes(`idle: ${n}`) === true &&
        document.querySelectorAll('#agents tr[data-agent]').length > 0,
      { polling: 'raf', timeout: 60000 },
      AGENTS,
    );
    const firstRender = Date.now() - nav;
    const drawnRows = await page.$$eval('#agents tr[data-agent]', (els) => els.length);
    console.log(`time to first render: ${firstRender} ms (${drawnRows} of ${AGENTS} rows in the DOM)`);

    // Frame times in the page while tasks flow.
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
    const { events: before } = (await rest(server.url, 'GET', '/api/swarms/bench/events?limit=1')) as { events: { id: number }[] };
    const tasksPerS = EVENTS_PER_S / EVENTS_PER_TASK_GUESS;
    const start = Date.now();
    let sent = 0;
    let inFlight = 0;
    while (Date.now() - start < MEASURE_MS) {
      const due = Math.floor(((Date.now() - start) / 1000) * tasksPerS);
      for (; sent < due && inFlight < MAX_IN_FLIGHT; sent++) {
        inFlight++;
        const agent = agents[sent % AGENTS]?.name ?? 'a0000';
        void rest(server.url, 'POST', `/api/swarms/bench/agents/${agent}/task`, { task: `t${sent}` })
          .catch(() => undefined) // best-effort: a refused task (inbox full) only lowers the rate, which is printed
          .finally(() => inFlight--);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const elapsed = (Date.now() - start) / 1000;
    const frames = (await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __stop: boolean };
      w.__stop = true;
      return w.__frames.slice(1);
    })) as number[];
    const { events: after } = (await rest(server.url, 'GET', '/api/swarms/bench/events?limit=1')) as { events: { id: number }[] };
    const stored = (after[0]?.id ?? 0) - (before[0]?.id ?? 0);
    const sorted = [...frames].sort((a, b) => a - b);
    console.log(
      `tasks sent: ${sent} in ${elapsed.toFixed(1)} s; events stored and pushed: ${stored} (${(stored / elapsed).toFixed(0)} events/s)`,
    );
    console.log(
      `frame time over ${frames.length} frames: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms`,
    );
    if (s.problems.length > 0) console.log(`page problems: ${JSON.stringify(s.problems.slice(0, 5))}`);
  } finally {
    await s.close();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
