/**
 * Fan-out: many socket.io clients joined to one swarm and subscribed to all its events while
 * tasks run over mock agents. Every client receives every stored event of the swarm exactly once, in id
 * order (compared with the store's list read back through `GET …/events?since_id`), and one
 * `turn_completed` push per turn; server memory and event-loop lag p99 (prom-client's monitorEventLoopDelay,
 * `GET /metrics`) are reported. npm test: the in-process server; full mode: the built server process.
 */
import {
  checkStream,
  connectRecorder,
  FULL,
  newestEventId,
  postTasks,
  recordLoadRows,
  round,
  scrapeMetrics,
  settle,
  startLoadServer,
  startMockSwarm,
  storedEventIds,
} from './support/load-kit';
import type { LoadRow, LoadServer, Recorder, StreamCheck } from './support/load-kit';

const CLIENTS = FULL ? 100 : 20;
/**
 * Full mode: 3,000 unless GENSWARMS_LOAD_TASKS says otherwise (the issue's 10,000 took over 20 min on the loaded
 * 2-core box; docs/reliability.md "Load" gives the size of each recorded run).
 */
const TASKS = FULL ? Number(process.env['GENSWARMS_LOAD_TASKS'] ?? '3000') : 200;
if (!Number.isInteger(TASKS) || TASKS < 1) throw new Error('GENSWARMS_LOAD_TASKS must be a positive integer');
const AGENTS = FULL ? 100 : 20;

let s: LoadServer;
const recorders: Recorder[] = [];
const rows: LoadRow[] = [];

beforeAll(async () => {
  s = await startLoadServer(FULL);
}, 600000);
afterAll(async () => {
  recordLoadRows('load-fanout', rows);
  for (const r of recorders) r.close();
  await fetch(`${s.url}/api/swarms/fan/stop`, { method: 'POST' }).catch(() => undefined);
  await s.close();
}, 60000);

const statuses = (answers: ReadonlyArray<{ status: number; error?: string }>): string =>
  [...new Set(answers.map((a) => `${a.status}${a.error === undefined ? '' : ` ${a.error}`}`))].sort().join(', ');
const total = (checks: readonly StreamCheck[], key: 'lost' | 'duplicated' | 'outOfOrder'): number => checks.reduce((a, c) => a + c[key], 0);

it(
  `${CLIENTS} clients on one swarm while ${TASKS} tasks run over ${AGENTS} mock agents: every event exactly once, in order`,
  async () => {
    const agents = await startMockSwarm(s.url, 'fan', AGENTS);
    for (let i = 0; i < CLIENTS; i += 1) recorders.push(await connectRecorder(s.url, 'fan'));
    const since = await newestEventId(s.url, 'fan');
    await scrapeMetrics(s.url); // starts the event-loop lag window (prom-client resets it at each scrape)
    let peakDuring = 0;
    const sampler = setInterval(() => {
      peakDuring = Math.max(peakDuring, s.memory().rssMiB);
    }, 500);
    const t0 = Date.now();
    let answers: Awaited<ReturnType<typeof postTasks>> = [];
    try {
      answers = await postTasks(s.url, 'fan', agents, TASKS, Math.min(100, TASKS));
      // A task whose request failed is not waited for (it is reported as not accepted).
      await settle(s.url, 'fan', recorders, answers.filter((a) => a.status === 200).length, FULL ? 1500000 : 90000);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - t0) / 1000;
    const metrics = await scrapeMetrics(s.url);
    const expected = await storedEventIds(s.url, 'fan', since);
    const checks = recorders.map((r) => checkStream(r.eventIds, expected));
    const turnsMissing = recorders.reduce((a, r) => a + Math.max(0, answers.filter((x) => x.status === 200).length - r.turns.size), 0);
    const turnsTwice = recorders.reduce((a, r) => a + [...r.turns.values()].filter((n) => n > 1).length, 0);
    const dropped = recorders.filter((r) => r.closed !== undefined).length;
    const accepted = answers.filter((a) => a.status === 200).length;
    const lagP99 = (metrics.get('nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000;
    const lagMax = (metrics.get('nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000;
    const lost = total(checks, 'lost');
    const dup = total(checks, 'duplicated');
    const disorder = total(checks, 'outOfOrder');
    const t = 'fan-out';
    rows.push(
      { target: t, measure: 'clients / agents / tasks', value: `${CLIENTS} / ${AGENTS} / ${TASKS}`, ok: true },
      { target: t, measure: 'tasks accepted', value: accepted, goal: String(TASKS), ok: accepted === TASKS },
      { target: t, measure: 'task answers', value: statuses(answers), goal: '200', ok: statuses(answers) === '200' },
      { target: t, measure: 'events stored for the swarm', value: expected.length, ok: expected.length > 0 },
      {
        target: t,
        measure: 'events delivered (all clients)',
        value: recorders.reduce((a, r) => a + r.eventIds.length, 0),
        goal: String(expected.length * CLIENTS),
        ok: true,
      },
      { target: t, measure: 'events lost', value: lost, goal: '0', ok: lost === 0 },
      { target: t, measure: 'events duplicated', value: dup, goal: '0', ok: dup === 0 },
      { target: t, measure: 'events out of order', value: disorder, goal: '0', ok: disorder === 0 },
      {
        target: t,
        measure: 'turn_completed pushes missing / twice',
        value: `${turnsMissing} / ${turnsTwice}`,
        goal: '0 / 0',
        ok: turnsMissing === 0 && turnsTwice === 0,
      },
      { target: t, measure: 'clients disconnected', value: dropped, goal: '0', ok: dropped === 0 },
      { target: t, measure: 'seconds', value: Math.round(seconds), ok: true },
      { target: t, measure: 'tasks/s run', value: round(TASKS / seconds), ok: true },
      { target: t, measure: 'events/s delivered', value: Math.round((expected.length * CLIENTS) / seconds), ok: true },
      {
        target: t,
        measure: `RSS MiB peak sampled / VmHWM (${s.measured})`,
        value: `${round(peakDuring)} / ${s.memory().peakMiB}`,
        ok: true,
      },
      { target: t, measure: `event-loop lag p99 / max ms (${s.measured})`, value: `${round(lagP99)} / ${round(lagMax)}`, ok: true },
    );
    process.stdout.write(`${JSON.stringify(rows)}\n`);

    expect(accepted).toBe(TASKS);
    for (const c of checks)
      expect(c).toEqual({ expected: expected.length, received: expected.length, lost: 0, duplicated: 0, outOfOrder: 0 });
    expect({ turnsMissing, turnsTwice, dropped }).toEqual({ turnsMissing: 0, turnsTwice: 0, dropped: 0 });
  },
  FULL ? 1800000 : 150000,
);
