/**
 * A server SIGKILL while a swarm starts (part of its agents up), while it stops, and while
 * many tasks are queued (100 in npm test, 1,000 with GENSWARMS_RELIABILITY=full). None may lose or duplicate
 * an accepted task: read back per item id through the API after the restart. Real server process, real
 * tmux and local /bin/sh clients, mock agents for the queue.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { waitFor } from './support/engine-server';
import type { ServerUnderTest } from './support/fault-kit';
import {
  agentRoots,
  allEvents,
  diagnose,
  expectExactlyOnce,
  FULL,
  headlessClient,
  sendTask,
  TMUX,
  tuiClient,
  turnsOf,
  waitCompleted,
  waitState,
  type FigureRow,
  type Row,
  startFaultServer,
  stopFaultServer,
} from './support/fault-kit';

const QUEUED = FULL ? 1000 : 100;
const QUEUE_AGENTS = 4;
const START_AGENTS = FULL ? 10 : 6;

let base: string;
let server: ServerUnderTest;
const figures: FigureRow[] = [];

beforeAll(async () => {
  ({ base, server } = await startFaultServer('gs-fkl-'));
}, 620_000);

afterAll(async () => {
  await stopFaultServer(base, server, 'lifecycle', figures);
}, 120_000);

function lossRows(target: string, counted: { lost: number; duplicated: number }): void {
  figures.push({ target, measure: 'tasks lost', value: counted.lost, goal: '0', ok: counted.lost === 0 });
  figures.push({ target, measure: 'tasks duplicated', value: counted.duplicated, goal: '0', ok: counted.duplicated === 0 });
}

async function swarmStatus(swarm: string): Promise<string> {
  return String((await request(server.url).get(`/api/swarms/${swarm}`)).body.status);
}

function tmuxWindows(swarm: string): string[] {
  const r = spawnSync(TMUX, ['-S', join(base, 'home', 'tmux', 'tmux.sock'), 'list-windows', '-t', `=${swarm}`, '-F', '#{window_name}'], {
    shell: false,
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.split('\n').filter((l) => l !== '') : [];
}

describe('server SIGKILL around the swarm lifecycle', () => {
  it(`SIGKILL while ${QUEUED} tasks are queued over ${QUEUE_AGENTS} mock agents (and again half-way): each completes exactly once`, async () => {
    const swarm = 'kqueue';
    const agents = Array.from({ length: QUEUE_AGENTS }, (_, i) => ({
      name: `m${i}`,
      // Each agent's share of the tasks must outlast their sending (the kill has to find a queue): 200 ms a turn,
      // 5 s (50 s in full) per agent, against ~20 ms per send. At 30 ms a faster engine drained the queue first.
      backend: { type: 'mock', opts: { replies: ['r {{content}}'], delay_ms: 200 } },
    }));
    await request(server.url)
      .post('/api/swarms')
      .send({ config: { name: swarm, agents } })
      .expect(201);
    for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
    const accepted = new Map<string, string[]>(agents.map((a) => [a.name, []]));
    for (let i = 0; i < QUEUED; i++) {
      const name = `m${i % QUEUE_AGENTS}`;
      accepted.get(name)?.push(await sendTask(server.url, swarm, name, `t${i}`));
    }
    const queuedAtKill = (
      await Promise.all(
        agents.map(async (a) => Number((await request(server.url).get(`/api/swarms/${swarm}/agents/${a.name}`)).body.inbox_size)),
      )
    ).reduce((x, y) => x + y, 0);
    await server.kill();
    expect(queuedAtKill).toBeGreaterThan(0);
    await server.start();
    // a second crash once about half of them are done
    await waitFor(
      async () => (await turnsOf(server.url, swarm, 'm0')).filter((t) => t['status'] === 'completed').length >= QUEUED / QUEUE_AGENTS / 2,
      'half done',
      { timeoutMs: 120_000 },
    );
    await server.restart();
    for (const a of agents) await waitCompleted(server, swarm, a.name, QUEUED / QUEUE_AGENTS, 300_000);
    const counted = await expectExactlyOnce(server.url, swarm, accepted);
    for (const a of agents) {
      const turns = await turnsOf(server.url, swarm, a.name);
      // each reply is the one its own task asked for
      expect(turns.every((t) => typeof t['reply_preview'] === 'string' && /^r t\d+$/.test(t['reply_preview']))).toBe(true);
      expect(new Set(turns.map((t) => t['reply_preview'])).size).toBe(QUEUED / QUEUE_AGENTS);
    }
    expect((await allEvents(server.url, swarm, 'task_sent')).length).toBe(QUEUED);
    figures.push({
      target: `sigkill with ${QUEUED} tasks queued (mock)`,
      measure: 'queued at the first kill',
      value: queuedAtKill,
      ok: true,
    });
    lossRows(`sigkill with ${QUEUED} tasks queued (mock)`, counted);
    await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
  }, 600_000);

  const START_CASES = [
    ['tmux', { type: 'tmux', runner: 'none' }, true],
    ['local', { type: 'local' }, false],
  ] as const;
  it.each(FULL ? START_CASES : START_CASES.slice(0, 1))(
    `SIGKILL mid-start (${START_AGENTS} %s agents, part of them up): after the restart every agent runs once and takes tasks`,
    async (label, backend, tui) => {
      const swarm = `kstart${label}`;
      const client = { command: ['/bin/sh', '-c', tui ? tuiClient(0) : headlessClient(0)] };
      const agents = Array.from({ length: START_AGENTS }, (_, i) => ({ name: `s${i}`, backend, client }));
      const posted = request(server.url)
        .post('/api/swarms')
        .send({ config: { name: swarm, agents } })
        .then((r) => r);
      // kill as soon as one agent is up (or, if the start outran the poll, right after it)
      const upAtKill = await waitFor(
        async () => {
          const res = await request(server.url).get(`/api/swarms/${swarm}/agents`);
          const states = ((res.body.agents ?? []) as Row[]).map((a) => a['state']);
          const up = states.filter((s) => s === 'idle').length;
          return up >= 1 ? up : undefined;
        },
        `${swarm}: first agent up`,
        { timeoutMs: 120_000 },
      );
      await server.kill();
      await posted.catch(() => undefined);
      await server.start();
      for (const a of agents) await waitState(server, swarm, a.name, ['idle'], 120_000);
      expect(await swarmStatus(swarm)).toBe('running');
      // exactly one client per agent: nothing started twice, nothing left over
      const roots = agentRoots(swarm);
      expect([...roots.keys()].sort()).toEqual(agents.map((a) => a.name).sort());
      for (const [name, pids] of roots) expect([name, pids.length]).toEqual([name, 1]);
      if (tui) expect(tmuxWindows(swarm).sort()).toEqual(agents.map((a) => a.name).sort());
      const accepted = new Map<string, string[]>();
      for (const a of agents) accepted.set(a.name, [await sendTask(server.url, swarm, a.name, 'after')]);
      for (const a of agents) await waitCompleted(server, swarm, a.name, 1);
      const counted = await expectExactlyOnce(server.url, swarm, accepted);
      figures.push({
        target: `sigkill mid-start ${label}`,
        measure: `agents up at the kill (of ${START_AGENTS})`,
        value: upAtKill,
        ok: true,
      });
      lossRows(`sigkill mid-start ${label}`, counted);
      await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
      expect(agentRoots(swarm).size).toBe(0);
    },
    600_000,
  );

  it('a tmux window the killed server left without a matching record (killed while creating it) is stopped at recovery; the agent starts once', async () => {
    const swarm = 'kwin';
    const client = { command: ['/bin/sh', '-c', tuiClient(0)] };
    const agents = ['w0', 'w1'].map((name) => ({ name, backend: { type: 'tmux', runner: 'none' }, client }));
    await request(server.url)
      .post('/api/swarms')
      .send({ config: { name: swarm, agents } })
      .expect(201);
    for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
    await server.kill();
    // what a kill between the window's creation and the store's record leaves: a live window the store does not name
    const sock = join(base, 'home', 'tmux', 'tmux.sock');
    const tmux = (args: string[]): void => {
      const r = spawnSync(TMUX, ['-S', sock, ...args], { shell: false, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
    };
    tmux(['kill-window', '-t', `=${swarm}:=w1`]);
    tmux(['new-window', '-d', '-t', `=${swarm}:`, '-n', 'w1', '/bin/sleep', '600']);
    await server.start();
    for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
    // the store says idle from before the kill while recovery replaces w1's window: wait for both clients to run
    // (a foreign window adopted as w1 would never show w1's client), then check that each runs exactly once
    await waitFor(async () => agentRoots(swarm).size === 2, 'both agents have their client after the restart', { timeoutMs: 60_000 });
    const roots = agentRoots(swarm);
    expect([...roots.entries()].map(([name, pids]) => [name, pids.length]).sort()).toEqual([
      ['w0', 1],
      ['w1', 1],
    ]);
    expect(tmuxWindows(swarm).sort()).toEqual(['w0', 'w1']);
    const id = await sendTask(server.url, swarm, 'w1', 'after');
    await waitCompleted(server, swarm, 'w1', 1);
    lossRows('sigkill leaving an unrecorded tmux window', await expectExactlyOnce(server.url, swarm, new Map([['w1', [id]]])));
    await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
  }, 300_000);

  it('SIGKILL mid-stop (tmux clients that ignore SIGTERM): the stop is finished after the restart, queued work reported dropped, the swarm starts again', async () => {
    const swarm = 'kstop';
    // ignores SIGTERM, so each stop waits out its grace: the kill lands while the swarm is `stopping`
    const stubborn = { command: ['/bin/sh', '-c', `trap '' TERM; ${tuiClient(0)}`] };
    const agents = Array.from({ length: 3 }, (_, i) => ({ name: `p${i}`, backend: { type: 'tmux', runner: 'none' }, client: stubborn }));
    const config = { name: swarm, agents };
    await request(server.url).post('/api/swarms').send({ config }).expect(201);
    for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
    const accepted = [
      await sendTask(server.url, swarm, 'p0', 'SLOW'),
      await sendTask(server.url, swarm, 'p0', 'queued1'),
      await sendTask(server.url, swarm, 'p0', 'queued2'),
    ];
    await waitState(server, swarm, 'p0', ['busy']);
    const stopping = request(server.url)
      .delete(`/api/swarms/${swarm}`)
      .then((r) => r);
    await waitFor(async () => (await swarmStatus(swarm)) === 'stopping', `${swarm} stopping`, { timeoutMs: 60_000 });
    await server.kill();
    await stopping.catch(() => undefined);
    await server.start();
    await waitFor(async () => (await swarmStatus(swarm)) === 'stopped', `${swarm} stopped after the restart`, { timeoutMs: 60_000 }).catch(
      async (e: Error) => Promise.reject(new Error(`${e.message}: ${await diagnose(server, swarm, 'p0')}`)),
    );
    expect(agentRoots(swarm).size).toBe(0);
    expect(tmuxWindows(swarm)).toEqual([]);
    // the open turn ended cancelled (once), the two queued items were reported dropped (never silently)
    const turns = await turnsOf(server.url, swarm, 'p0');
    expect(turns.map((t) => [t['item_id'], t['status']])).toEqual([[accepted[0], 'cancelled']]);
    const dropped = (await allEvents(server.url, swarm, 'inbox_dropped')).map((e) => (e['metadata'] as Row)['count']);
    expect(dropped.reduce((x: number, y) => x + Number(y), 0)).toBe(2);
    // every accepted task is accounted for exactly once: one cancelled turn + two dropped
    const accounted = turns.length + 2;
    figures.push({
      target: 'sigkill mid-stop tmux',
      measure: 'tasks lost (not completed, cancelled or reported dropped)',
      value: accepted.length - accounted,
      goal: '0',
      ok: accounted === accepted.length,
    });
    // and it starts again
    await request(server.url).post('/api/swarms').send({ config }).expect(201);
    for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
    const again = await sendTask(server.url, swarm, 'p1', 'again');
    await waitCompleted(server, swarm, 'p1', 1);
    expect((await turnsOf(server.url, swarm, 'p1')).map((t) => t['item_id'])).toEqual([again]);
    await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
  }, 600_000);
});
