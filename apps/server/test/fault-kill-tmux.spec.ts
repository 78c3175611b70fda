/**
 * The tmux server killed (kill -9) under running agents. Every tmux session ends `failed` with
 * `tmux_server_exited`, nothing more is dispatched to it and its queue stays visible (`inbox_size`); an agent
 * restart ends the open turn once and runs the queue, a swarm restart reports the queue dropped
 * (`inbox_dropped` with a count and a reason code, never silently); the server stays up and tasks run again. Real server process, real tmux (runner none and, in full mode, bwrap), /bin/sh TUI clients.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { waitFor } from './support/engine-server';
import type { ServerUnderTest } from './support/fault-kit';
import {
  agentStatus,
  allEvents,
  expectExactlyOnce,
  FULL,
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

let base: string;
let server: ServerUnderTest;
const figures: FigureRow[] = [];

beforeAll(async () => {
  ({ base, server } = await startFaultServer('gs-fktmux-'));
}, 620_000);

afterAll(async () => {
  await stopFaultServer(base, server, 'tmux', figures);
}, 120_000);

function tmuxServerPid(): number {
  const r = spawnSync(TMUX, ['-S', join(base, 'home', 'tmux', 'tmux.sock'), 'display-message', '-p', '#{pid}'], {
    shell: false,
    encoding: 'utf8',
  });
  const pid = Number(r.stdout.trim());
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new Error(`no tmux server pid: ${r.stdout} ${r.stderr}`);
  return pid;
}

const CASES = [
  ['none', { type: 'tmux', runner: 'none' }, {}],
  ['bwrap', { type: 'tmux', runner: 'bwrap' }, { network: 'none' }],
] as const;

describe('the tmux server killed under running agents', () => {
  it.each(FULL ? CASES : CASES.slice(0, 1))(
    'runner %s: sessions fail with a reason, queued work is kept and reported, then run (agent restart) or reported dropped (swarm restart)',
    async (label, backend, extra) => {
      const swarm = `ktx${label}`;
      const client = { command: ['/bin/sh', '-c', tuiClient(0)] };
      const agents = ['a', 'b'].map((name) => ({ name, backend, client, ...extra }));
      await request(server.url)
        .post('/api/swarms')
        .send({ config: { name: swarm, agents } })
        .expect(201);
      for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
      const forA = [
        await sendTask(server.url, swarm, 'a', 'SLOW'),
        await sendTask(server.url, swarm, 'a', 'qa1'),
        await sendTask(server.url, swarm, 'a', 'qa2'),
      ];
      const forB = [await sendTask(server.url, swarm, 'b', 'SLOW'), await sendTask(server.url, swarm, 'b', 'qb1')];
      await waitState(server, swarm, 'a', ['busy']);
      await waitState(server, swarm, 'b', ['busy']);
      process.kill(tmuxServerPid(), 'SIGKILL');

      // both sessions end failed with the reason code; the queue is kept, visible, and nothing is dispatched to a dead agent
      const failed: Row[] = [];
      for (const a of agents) failed.push(await waitState(server, swarm, a.name, ['failed'], 60_000));
      for (const st of failed) expect((st['failure'] as { code: string } | null)?.code).toBe('tmux_server_exited');
      await new Promise((r) => setTimeout(r, 1500)); // a dispatch loop that wrongly went on would show here
      expect([(await agentStatus(server.url, swarm, 'a'))['state'], (await agentStatus(server.url, swarm, 'a'))['inbox_size']]).toEqual([
        'failed',
        2,
      ]);
      expect([(await agentStatus(server.url, swarm, 'b'))['state'], (await agentStatus(server.url, swarm, 'b'))['inbox_size']]).toEqual([
        'failed',
        1,
      ]);
      expect((await request(server.url).get('/healthz')).status).toBe(200);
      // the open turns end at once (never left running for a dead agent): error, with the exit's code
      for (const [agent, id] of [
        ['a', forA[0]],
        ['b', forB[0]],
      ] as const) {
        const ended = await waitFor(
          async () => (await turnsOf(server.url, swarm, agent)).find((t) => t['item_id'] === id && t['status'] !== 'running'),
          `${swarm}/${agent}: the open turn ended`,
          { timeoutMs: 30_000 },
        );
        // agent_exited; delivery_failed when the kill cut the paste itself
        expect([ended['status'], ended['error']]).toEqual(['error', expect.stringMatching(/^(agent_exited|delivery_failed)$/)]);
      }

      // agent restart (a new tmux server): a's open turn ends once, its two queued tasks run exactly once
      await request(server.url).post(`/api/swarms/${swarm}/agents/a/restart`).expect(200);
      await waitCompleted(server, swarm, 'a', 2);
      const turnsA = await turnsOf(server.url, swarm, 'a');
      expect(turnsA.filter((t) => t['item_id'] === forA[0]).map((t) => t['status'])).toEqual([
        expect.stringMatching(/^(error|cancelled)$/),
      ]);
      const counted = await expectExactlyOnce(server.url, swarm, new Map([['a', forA.slice(1)]]));

      // swarm restart: b's queued task is reported dropped (event with a count and a reason code), then tasks run again
      await request(server.url).post(`/api/swarms/${swarm}/restart`).expect(200);
      const dropped = (await allEvents(server.url, swarm, 'inbox_dropped')).map((e) => e['metadata'] as Row);
      expect(dropped).toEqual([expect.objectContaining({ count: 1, reason: 'swarm_stopped' })]);
      for (const a of agents) await waitState(server, swarm, a.name, ['idle']);
      const again = await sendTask(server.url, swarm, 'b', 'again');
      await waitCompleted(server, swarm, 'b', 1);
      expect((await turnsOf(server.url, swarm, 'b')).filter((t) => t['status'] === 'completed').map((t) => t['item_id'])).toEqual([again]);
      // every accepted task: completed once, ended with its turn (the two in flight), or reported dropped (b's queued one)
      const turnsB = await turnsOf(server.url, swarm, 'b');
      const lost = [...forA, ...forB].filter(
        (id) => ![...turnsA, ...turnsB].some((t) => t['item_id'] === id && t['status'] !== 'running') && id !== forB[1],
      ).length;
      expect(lost).toBe(0);
      figures.push({
        target: `tmux server kill -9 (runner ${label})`,
        measure: 'tasks lost',
        value: lost + counted.lost,
        goal: '0',
        ok: lost + counted.lost === 0,
      });
      figures.push({
        target: `tmux server kill -9 (runner ${label})`,
        measure: 'tasks duplicated',
        value: counted.duplicated,
        goal: '0',
        ok: counted.duplicated === 0,
      });
      figures.push({
        target: `tmux server kill -9 (runner ${label})`,
        measure: 'sessions failed with tmux_server_exited',
        value: failed.length,
        goal: '2',
        ok: failed.length === 2,
      });
      await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
    },
    300_000,
  );
});
