/**
 * Concurrent REST: many HTTP clients at once posting `POST /api/swarms/:s/agents/:a/task` over
 * mock agents. No 5xx, no connection error; every accepted task (200) is run exactly once (one completed
 * turn per accepted item id, read back through the API); and against an agent that never finishes its turn,
 * a burst past the inbox bound is refused with the documented 400 `inbox_full` (`limit` 1000) and nothing
 * else, the inbox never holding more than 1000 (full mode only).
 */
import { INBOX_LIMIT } from '@genswarms/engine';
import { waitFor } from './support/engine-server';
import { FULL, postTasks, recordLoadRows, round, startLoadServer, startMockSwarm, turnsOf } from './support/load-kit';
import type { LoadRow, LoadServer, TaskAnswer } from './support/load-kit';

const AGENTS = FULL ? 100 : 20;
const CLIENTS = FULL ? 1000 : 200;
/** Tasks in all (each client posts TASKS / CLIENTS of them, one after the other). */
const TASKS = FULL ? 2000 : 200;
/**
 * The burst at the agent that never finishes, past the inbox bound: full mode only (1,000+ accepted tasks
 * take about 30 s on the loaded 2-core box, past npm test's budget).
 */
const BURST = FULL ? INBOX_LIMIT + 500 : 0;

let s: LoadServer;
const rows: LoadRow[] = [];

beforeAll(async () => {
  s = await startLoadServer(FULL);
}, 600000);
afterAll(async () => {
  recordLoadRows('load-rest', rows);
  await fetch(`${s.url}/api/swarms/rest/stop`, { method: 'POST' }).catch(() => undefined);
  await s.close();
}, 60000);

const statusesOf = (answers: readonly TaskAnswer[]): string =>
  [...new Set(answers.map((a) => `${a.status}${a.error === undefined ? '' : ` ${a.error}`}`))].sort().join(', ');

it(
  `${CLIENTS} concurrent clients post ${TASKS} tasks on ${AGENTS} agents: no 5xx, each accepted task runs once; a burst of ${BURST} at one busy agent meets inbox_full at ${INBOX_LIMIT}`,
  async () => {
    const hold = { name: 'hold', backend: { type: 'mock', opts: { delay_ms: 3600000 } } };
    const agents = await startMockSwarm(s.url, 'rest', AGENTS, [hold]);

    const t0 = Date.now();
    const answers = await postTasks(s.url, 'rest', agents, TASKS, CLIENTS);
    const postSeconds = (Date.now() - t0) / 1000;
    const accepted = answers.filter((a) => a.status === 200);
    const byAgent = new Map<string, Set<string>>();
    for (const a of accepted) byAgent.set(a.agent, (byAgent.get(a.agent) ?? new Set()).add(a.id ?? ''));
    let turns: Array<{ agent: string; item_id: string; status: string }> = [];
    await waitFor(
      async () => {
        turns = [];
        for (const agent of agents) for (const t of await turnsOf(s.url, 'rest', agent)) turns.push({ agent, ...t });
        return turns.filter((t) => t.status === 'completed').length >= accepted.length;
      },
      `${accepted.length} turns completed`,
      { timeoutMs: FULL ? 900000 : 60000 },
    ).catch(() => undefined);
    const runSeconds = (Date.now() - t0) / 1000;
    const runs = new Map<string, number>();
    for (const t of turns) if (t.status === 'completed') runs.set(t.item_id, (runs.get(t.item_id) ?? 0) + 1);
    const lost = accepted.filter((a) => (runs.get(a.id ?? '') ?? 0) === 0).length;
    const twice = accepted.filter((a) => (runs.get(a.id ?? '') ?? 0) > 1).length;
    const unasked = [...runs.keys()].filter((id) => !accepted.some((a) => a.id === id)).length;
    const fivexx = answers.filter((a) => a.status >= 500 || a.status === 0).length;

    const burst = BURST === 0 ? [] : await postTasks(s.url, 'rest', ['hold'], BURST, Math.min(CLIENTS, BURST));
    const burstOk = burst.filter((a) => a.status === 200);
    const refused = burst.filter((a) => a.status === 400 && a.error === 'inbox_full' && a.limit === INBOX_LIMIT);
    const other = burst.length - burstOk.length - refused.length;
    const maxQueued = Math.max(0, ...burstOk.map((a) => a.queued ?? 0));
    const holdDetail = (await (await fetch(`${s.url}/api/swarms/rest/agents/hold`)).json()) as { inbox_size: number };

    rows.push(
      { target: 'concurrent REST', measure: 'clients at once', value: CLIENTS, ok: true },
      { target: 'concurrent REST', measure: 'tasks posted', value: TASKS, ok: true },
      { target: 'concurrent REST', measure: 'answers', value: statusesOf(answers), goal: '200', ok: accepted.length === TASKS },
      { target: 'concurrent REST', measure: '5xx or connection errors', value: fivexx, goal: '0', ok: fivexx === 0 },
      { target: 'concurrent REST', measure: 'accepted tasks not run', value: lost, goal: '0', ok: lost === 0 },
      { target: 'concurrent REST', measure: 'accepted tasks run twice', value: twice, goal: '0', ok: twice === 0 },
      { target: 'concurrent REST', measure: 'turns of no accepted task', value: unasked, goal: '0', ok: unasked === 0 },
      { target: 'concurrent REST', measure: 'tasks/s accepted', value: round(TASKS / postSeconds), ok: true },
      { target: 'concurrent REST', measure: 'seconds until all ran', value: Math.round(runSeconds), ok: true },
      { target: 'concurrent REST', measure: `peak RSS MiB (${s.measured})`, value: s.memory().peakMiB, ok: true },
    );
    if (BURST > 0) {
      rows.push(
        { target: 'inbox bound', measure: 'burst at a busy agent', value: BURST, ok: true },
        {
          target: 'inbox bound',
          measure: 'accepted (the inbox plus the turn in flight)',
          value: burstOk.length,
          goal: `${INBOX_LIMIT}-${INBOX_LIMIT + 1}`,
          ok: burstOk.length >= INBOX_LIMIT && burstOk.length <= INBOX_LIMIT + 1,
        },
        {
          target: 'inbox bound',
          measure: `400 inbox_full (limit ${INBOX_LIMIT})`,
          value: refused.length,
          goal: String(BURST - burstOk.length),
          ok: other === 0,
        },
        { target: 'inbox bound', measure: 'other answers', value: other, goal: '0', ok: other === 0 },
        {
          target: 'inbox bound',
          measure: 'largest queued / inbox_size after',
          value: `${maxQueued} / ${holdDetail.inbox_size}`,
          goal: `<= ${INBOX_LIMIT}`,
          ok: maxQueued <= INBOX_LIMIT && holdDetail.inbox_size <= INBOX_LIMIT,
        },
      );
    }
    process.stdout.write(`${JSON.stringify(rows)}\n`);

    expect(statusesOf(answers)).toBe('200');
    expect({ lost, twice, unasked }).toEqual({ lost: 0, twice: 0, unasked: 0 });
    expect(turns.filter((t) => t.status === 'completed').length).toBe(TASKS);
    for (const [agent, ids] of byAgent) expect(turns.filter((t) => t.agent === agent && ids.has(t.item_id)).length).toBe(ids.size);
    if (BURST === 0) return;
    expect(statusesOf(burst)).toBe('200, 400 inbox_full');
    expect(other).toBe(0);
    expect(burstOk.length).toBeGreaterThanOrEqual(INBOX_LIMIT);
    expect(burstOk.length).toBeLessThanOrEqual(INBOX_LIMIT + 1);
    expect(maxQueued).toBeLessThanOrEqual(INBOX_LIMIT);
    expect(holdDetail.inbox_size).toBeLessThanOrEqual(INBOX_LIMIT);
  },
  FULL ? 1800000 : 120000,
);
