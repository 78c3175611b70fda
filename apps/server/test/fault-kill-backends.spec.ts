/**
 * A server SIGKILL mid-turn on EVERY backend (local, bwrap, docker, tmux, tmux+bwrap, tmux+docker).
 * After a restart on the same home the interrupted turn completes exactly once and later tasks run. Real
 * server process, real tmux/bwrap/dockerd, /bin/sh clients speaking the agent protocol. Fast mode: one crash
 * point on tmux+docker; full mode (GENSWARMS_RELIABILITY=full): all six backends, three crash points each
 * (just accepted, delivered, reply being written). The docker rows skip only when no engine or no test image is there.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { waitFor } from './support/engine-server';
import type { ServerUnderTest } from './support/fault-kit';
import {
  containersOf,
  dockerReady,
  expectExactlyOnce,
  FULL,
  headlessClient,
  sendTask,
  TEST_IMAGE,
  tuiClient,
  waitCompleted,
  waitState,
  type FigureRow,
  startFaultServer,
  stopFaultServer,
} from './support/fault-kit';

const DOCKER = dockerReady();
/** Crash points: 0 right after the task was accepted, 1 once the turn directory exists, 2 once reply.md is written. */
const CRASH_POINTS = FULL ? [0, 1, 2] : [2];

interface BackendCase {
  readonly label: string;
  readonly backend: Record<string, unknown>;
  readonly tui: boolean;
  readonly network?: string;
  readonly docker: boolean;
}

const ALL_CASES: readonly BackendCase[] = [
  { label: 'local', backend: { type: 'local' }, tui: false, docker: false },
  { label: 'bwrap', backend: { type: 'bwrap' }, tui: false, network: 'none', docker: false },
  { label: 'docker', backend: { type: 'docker', image: TEST_IMAGE }, tui: false, network: 'none', docker: true },
  { label: 'tmux', backend: { type: 'tmux', runner: 'none' }, tui: true, docker: false },
  { label: 'tmuxbwrap', backend: { type: 'tmux', runner: 'bwrap' }, tui: true, network: 'none', docker: false },
  { label: 'tmuxdocker', backend: { type: 'tmux', runner: 'docker', image: TEST_IMAGE }, tui: true, network: 'none', docker: true },
];

/**
 * npm test runs the row restart-recovery-stall.spec.ts does not cover and that holds the most moving parts
 * (tmux+docker: a pane, a container, the engine); the full run takes all six.
 */
const FAST_LABELS = new Set(['tmuxdocker']);
const CASES = FULL ? ALL_CASES : ALL_CASES.filter((c) => FAST_LABELS.has(c.label));

let base: string;
let server: ServerUnderTest;
const figures: FigureRow[] = [];

beforeAll(async () => {
  ({ base, server } = await startFaultServer('gs-fkill-'));
}, 620_000);

afterAll(async () => {
  // a clean stop of what is left (containers are removed by the swarm stop), then the kill
  await stopFaultServer(base, server, 'backends', figures);
}, 120_000);

async function crashAt(point: number, swarm: string): Promise<void> {
  const turnsDir = join(base, 'home', 'workspaces', swarm, 'a', '.genswarms', 'turns');
  if (point >= 1)
    await waitFor(async () => existsSync(turnsDir) && readdirSync(turnsDir).length > 0, `${swarm} turn delivered`, { timeoutMs: 60_000 });
  if (point === 2)
    await waitFor(async () => readdirSync(turnsDir).some((t) => existsSync(join(turnsDir, t, 'reply.md'))), `${swarm} reply.md`, {
      timeoutMs: 60_000,
    });
  await server.kill();
}

describe('server SIGKILL mid-turn, every backend: the turn completes exactly once and later tasks run', () => {
  for (const c of CASES) {
    const skip = c.docker && !DOCKER.ok ? `skipped: ${DOCKER.ok ? '' : DOCKER.why}` : '';
    (skip === '' ? it : it.skip)(
      `${c.label}${skip === '' ? '' : ` (${skip})`}: crash points ${CRASH_POINTS.join(',')}`,
      async () => {
        for (const point of CRASH_POINTS) {
          const swarm = `k${c.label}${point}`;
          const client = { command: ['/bin/sh', '-c', c.tui ? tuiClient(2) : headlessClient(2)] };
          const agent = { name: 'a', backend: c.backend, client, ...(c.network === undefined ? {} : { network: c.network }) };
          const created = await request(server.url)
            .post('/api/swarms')
            .send({ config: { name: swarm, agents: [agent] } });
          expect([created.status, created.body.error]).toEqual([201, undefined]);
          await waitState(server, swarm, 'a', ['idle']);
          const ids = [await sendTask(server.url, swarm, 'a', 'survive')];
          await crashAt(point, swarm);
          await server.start();
          ids.push(await sendTask(server.url, swarm, 'a', 'second'));
          await waitCompleted(server, swarm, 'a', 2);
          ids.push(await sendTask(server.url, swarm, 'a', 'third'));
          await waitCompleted(server, swarm, 'a', 3);
          const counted = await expectExactlyOnce(server.url, swarm, new Map([['a', ids]]));
          await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
          if (c.docker) expect(containersOf(swarm)).toEqual([]);
          figures.push({
            target: `sigkill mid-turn ${c.label} (crash point ${point})`,
            measure: 'tasks lost',
            value: counted.lost,
            goal: '0',
            ok: counted.lost === 0,
          });
          figures.push({
            target: `sigkill mid-turn ${c.label} (crash point ${point})`,
            measure: 'tasks duplicated',
            value: counted.duplicated,
            goal: '0',
            ok: counted.duplicated === 0,
          });
        }
      },
      600_000,
    );
  }
});
