/**
 * Dockerd restarted mid-turn, on a PRIVATE engine (the shared one is never touched). The agent's
 * container is stopped by the engine's restart: the agent is reported (failed with a reason code, never left
 * busy), the open turn is failed or resumed — never hung —, no container is left behind, and after an agent
 * restart tasks run again. Skipped (saying why) only when no engine or test image is there to copy from.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOnce } from '@genswarms/tools';
import { waitFor } from './support/engine-server';
import { freePort } from './support/server-process';
import {
  agentStatus,
  diagnose,
  dockerReady,
  expectExactlyOnce,
  FULL,
  headlessClient,
  killTmuxServer,
  recordFigures,
  sendTask,
  ServerUnderTest,
  TEST_IMAGE,
  tuiClient,
  turnsOf,
  waitCompleted,
  waitState,
  type FigureRow,
} from './support/fault-kit';
import { PrivateDockerd } from './support/private-dockerd';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const READY = dockerReady();
const RUN_DIR = `/run/gs-fkd-${process.pid}`;

let base: string;
let server: ServerUnderTest;
let engine: PrivateDockerd;
let hostBridgeBefore = false;

/** Whether this host's network namespace holds the shared engine's bridge. */
function hostHasDocker0(): boolean {
  return spawnSync('/usr/sbin/ip', ['link', 'show', 'docker0'], { shell: false, stdio: 'ignore' }).status === 0;
}
const figures: FigureRow[] = [];

beforeAll(async () => {
  if (!READY.ok) return;
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-fkd-')));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid, below this directory
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
  hostBridgeBefore = hostHasDocker0();
  engine = new PrivateDockerd(RUN_DIR, join(base, 'dockerd'));
  await engine.start();
  engine.loadTestImage();
  server = new ServerUnderTest(MAIN, base, await freePort(), { DOCKER_HOST: engine.host });
  await server.start();
}, 620_000);

afterAll(async () => {
  if (!READY.ok || base === undefined) return;
  if (server?.child !== undefined) {
    const swarms = ((await request(server.url).get('/api/swarms')).body.swarms ?? []) as Array<{ name: string }>;
    for (const s of swarms) await request(server.url).delete(`/api/swarms/${s.name}`);
  }
  await server?.kill();
  killTmuxServer(join(base, 'home'));
  // nothing of ours may stay in the private engine
  const left = engine.docker(['ps', '-aq', '--filter', 'label=genswarms.swarm']).stdout.trim();
  if (left !== '') engine.docker(['rm', '-f', ...left.split('\n')]);
  await engine.destroy();
  recordFigures('dockerd', figures);
  rmSync(base, { recursive: true, force: true });
}, 180_000);

function containers(swarm: string): string[] {
  const r = engine.docker(['ps', '-a', '--filter', `label=genswarms.swarm=${swarm}`, '--format', '{{.Names}} {{.State}}']);
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

const CASES = [
  ['docker', { type: 'docker', image: TEST_IMAGE }, false],
  ['tmuxdocker', { type: 'tmux', runner: 'docker', image: TEST_IMAGE }, true],
] as const;

describe('dockerd restarted mid-turn (private engine)', () => {
  (READY.ok ? it.each(FULL ? CASES : CASES.slice(0, 1)) : it.skip.each(CASES))(
    `%s agent${READY.ok ? '' : ` (skipped: ${READY.ok ? '' : READY.why})`}: reported, the turn ends or resumes, no container left, tasks run after a restart`,
    async (label, backend, tui) => {
      const swarm = `kd${label}`;
      const client = { command: ['/bin/sh', '-c', tui ? tuiClient(0) : headlessClient(0)] };
      const agent = { name: 'a', backend, client, network: 'none' };
      await request(server.url)
        .post('/api/swarms')
        .send({ config: { name: swarm, agents: [agent] } })
        .expect(201);
      await waitState(server, swarm, 'a', ['idle']);
      const first = await sendTask(server.url, swarm, 'a', 'SLOW'); // the client sleeps 30 s before answering
      const turnsDir = join(base, 'home', 'workspaces', swarm, 'a', '.genswarms', 'turns');
      await waitFor(async () => existsSync(turnsDir) && readdirSync(turnsDir).length > 0, `${swarm} turn delivered`, { timeoutMs: 60_000 });
      await engine.restart();

      // reported, never left busy: the agent fails with a code (or, if the runner re-adopts, goes on)
      const st = await waitState(server, swarm, 'a', ['failed', 'idle'], 120_000);
      const failure = st['failure'] as { code: string } | null;
      if (st['state'] === 'failed') expect(typeof failure?.code).toBe('string');
      // no container running unowned: the stopped one is gone or owned by the failed session until its restart
      const before = containers(swarm);
      expect(before.every((c) => !c.endsWith(' running'))).toBe(true);

      // the open turn ends (or completes) exactly once, before any restart: never left running
      await waitFor(
        async () => (await turnsOf(server.url, swarm, 'a')).every((t) => t['status'] !== 'running'),
        `${swarm}: the interrupted turn ended`,
        { timeoutMs: 60_000 },
      ).catch(async (e: Error) => Promise.reject(new Error(`${e.message}: ${await diagnose(server, swarm, 'a')}`)));
      await request(server.url).post(`/api/swarms/${swarm}/agents/a/restart`).expect(200);
      await waitState(server, swarm, 'a', ['idle'], 120_000);
      const ended = (await turnsOf(server.url, swarm, 'a')).filter((t) => t['item_id'] === first);
      expect(ended).toHaveLength(1);
      if (st['state'] === 'failed') expect([ended[0]?.['status'], ended[0]?.['error']]).toEqual(['error', 'agent_exited']);
      const again = await sendTask(server.url, swarm, 'a', 'again');
      await waitCompleted(server, swarm, 'a', ended[0]?.['status'] === 'completed' ? 2 : 1);
      const counted = await expectExactlyOnce(server.url, swarm, new Map([['a', [again]]]));
      expect(containers(swarm).map((c) => c.split(' ')[1])).toEqual(['running']); // exactly one container: the new agent's
      await request(server.url).delete(`/api/swarms/${swarm}`).expect(200);
      expect(containers(swarm)).toEqual([]);
      const state = String(st['state']);
      figures.push({
        target: `dockerd restarted mid-turn (${label})`,
        measure: `agent reported (${state}${failure === null ? '' : ` ${failure.code}`})`,
        value: 1,
        goal: '1',
        ok: true,
      });
      figures.push({ target: `dockerd restarted mid-turn (${label})`, measure: 'turns left running', value: 0, goal: '0', ok: true });
      figures.push({
        target: `dockerd restarted mid-turn (${label})`,
        measure: 'tasks lost',
        value: counted.lost,
        goal: '0',
        ok: counted.lost === 0,
      });
      figures.push({
        target: `dockerd restarted mid-turn (${label})`,
        measure: 'containers left after the stop',
        value: containers(swarm).length,
        goal: '0',
        ok: true,
      });
      expect((await agentStatus(server.url, swarm, 'a'))['state']).toBe('stopped');
    },
    600_000,
  );
});

describe('the private engine and the host', () => {
  (READY.ok ? it : it.skip)("leaves the host's docker0 bridge (the shared engine's) in place through its start and restarts", () => {
    expect(hostBridgeBefore).toBe(true);
    expect(hostHasDocker0()).toBe(true);
  });
});
