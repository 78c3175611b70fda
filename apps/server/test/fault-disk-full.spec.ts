/**
 * The disk under GENSWARMS_HOME fills up (a small tmpfs this spec mounts). Writes are refused
 * with 507 `storage_full` and a `storage_full` event, reads keep answering, every task accepted before or
 * after runs exactly once, the database passes `PRAGMA integrity_check`, and the server recovers by itself
 * once space returns (filler deleted; in full mode also a remount with more room). Workspaces live on the
 * ordinary disk so that what is measured is the store, not the mock agent's own receipt writes.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { OpenedEngine, ServerConfig } from '../src/index';
import { createEngineEventSink, openEngine } from '../src/index';
import { waitFor } from './support/engine-server';
import { FULL, expectExactlyOnce, headlessClient, recordFigures, turnsOf } from './support/fault-kit';
import type { FigureRow, Row } from './support/fault-kit';
import { startTestServer, testConfig } from './support/harness';
import type { TestServer } from './support/harness';
import { mountTmpfs } from './support/tmpfs';
import type { TestTmpfs } from './support/tmpfs';

const SQLITE3 = '/usr/bin/sqlite3';
/** Full episodes: fill, refuse, free (fast: one, by deleting the filler; full: several, the last one by a remount). */
const EPISODES = FULL ? 4 : 1;
const REFUSED_PER_EPISODE = FULL ? 20 : 3;

let base: string;
let fsys: TestTmpfs | undefined;
let skip = '';
let opened: OpenedEngine | undefined;
let server: TestServer | undefined;
let home: string;
let url: string;
const logLines: string[] = [];
const figures: FigureRow[] = [];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-diskfull-')));
  chmodSync(base, 0o711); // search only: a root server runs its local agents as the agent uid, below this directory
  const m = mountTmpfs(join(base, 'mnt'), 8);
  if ('unavailable' in m) {
    skip = m.unavailable;
    return;
  }
  fsys = m;
  home = join(m.path, 'home');
  mkdirSync(home, { mode: 0o700 });
  const work = join(base, 'work');
  mkdirSync(work, { mode: 0o711 });
  const config: ServerConfig = testConfig(base, { home, configDir: base, skillsRoot: join(base, 'skills'), workspaceRoots: [work] });
  opened = await openEngine(
    config,
    {
      searchPath: process.env['PATH'] ?? '/usr/bin:/bin',
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      agentEntry: join(base, 'none.js'),
    },
    { receiptPollMs: 20, outboxPollMs: 50, log: { error: (message) => logLines.push(message) } },
  );
  server = await startTestServer(config, { engine: opened.engine, events: createEngineEventSink(opened.bus, () => undefined) });
  url = server.url;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await opened?.shutdown().catch(() => undefined);
  fsys?.free();
  fsys?.unmount();
  rmSync(base, { recursive: true, force: true });
});

function integrity(file: string): string {
  const r = spawnSync(SQLITE3, [file, 'PRAGMA integrity_check;'], { shell: false, encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.trim();
}

async function events(type: string): Promise<Row[]> {
  return (await request(url).get(`/api/events?event_type=${type}&limit=1000`)).body.events as Row[];
}

describe('disk full under GENSWARMS_HOME', () => {
  it('refuses writes with 507 storage_full and an event, loses no accepted task, keeps the database sound, recovers', async () => {
    if (skip !== '') {
      console.warn(`skipped: ${skip}`);
      return;
    }
    const fs = fsys as TestTmpfs;
    const swarm = 'full';
    const agent = {
      name: 'a',
      backend: { type: 'mock', opts: { replies: ['{{content}}'], delay_ms: 150 } },
      workspace: join(base, 'work', 'a'),
    };
    expect(
      (
        await request(url)
          .post('/api/swarms')
          .send({ config: { name: swarm, agents: [agent] } })
      ).status,
    ).toBe(201);
    await waitFor(async () => (await request(url).get(`/api/swarms/${swarm}/agents/a`)).body.state === 'idle', 'agent idle');

    const accepted: string[] = [];
    const refusedTexts: string[] = [];
    const statuses = new Map<number, number>();
    const post = (task: string): Promise<request.Response> => request(url).post(`/api/swarms/${swarm}/agents/a/task`).send({ task });
    for (let ep = 0; ep < EPISODES; ep++) {
      // accepted before the disk fills: queued behind the in-flight turn, some finishing while it is full
      for (let i = 0; i < 4; i++) {
        const r = await post(`before-${ep}-${i}`);
        expect(r.status).toBe(200);
        accepted.push(String(r.body.id));
      }
      fs.fill();
      for (let i = 0; i < REFUSED_PER_EPISODE; i++) {
        const r = await post(`refused-${ep}-${i}`);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) {
          accepted.push(String(r.body.id)); // a write that still found a free page: accepted, so it must run
          continue;
        }
        refusedTexts.push(`refused-${ep}-${i}`);
        expect(r.status).toBe(507);
        expect(r.body.error).toBe('storage_full');
        expect(typeof r.body.message).toBe('string');
        // reads keep answering while the disk is full
        expect((await request(url).get('/api/swarms')).status).toBe(200);
        expect((await request(url).get(`/api/swarms/${swarm}/agents/a`)).status).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 800)); // turns in flight try to finish on the full disk
      if (FULL && ep === EPISODES - 1) fs.grow(64);
      else fs.free();
      for (let i = 0; i < 2; i++) {
        const r = await post(`after-${ep}-${i}`);
        expect(r.status).toBe(200);
        accepted.push(String(r.body.id));
      }
    }
    expect(refusedTexts.length).toBeGreaterThan(0);

    await waitFor(
      async () => {
        const turns = await turnsOf(url, swarm, 'a');
        return accepted.every((id) => turns.some((t) => t['item_id'] === id && t['status'] === 'completed'));
      },
      'every accepted task completed',
      { timeoutMs: 60_000 },
    ).catch(async (e: Error) => {
      const st = (await request(url).get(`/api/swarms/${swarm}/agents/a`)).body as Row;
      const ev = ((await request(url).get(`/api/swarms/${swarm}/events?limit=40`)).body.events as Row[]).map((x) => [
        x['event_type'],
        x['message'],
      ]);
      throw new Error(`${e.message}: ${JSON.stringify(st)} ${JSON.stringify(ev)}`);
    });
    await expectExactlyOnce(url, swarm, new Map([['a', accepted]]));
    const turns = await turnsOf(url, swarm, 'a');
    // a refused task left nothing behind
    expect(turns.filter((t) => refusedTexts.includes(String(t['reply_preview'])))).toEqual([]);
    expect((await request(url).get(`/api/swarms/${swarm}/agents/a`)).body.state).toBe('idle');

    const full = await events('storage_full');
    const recovered = await events('storage_recovered');
    // at the first refusal: a log line; the event is stored then if it finds room, else once space returns (recorded_late)
    expect(logLines.filter((l) => l === 'storage_full').length).toBe(EPISODES);
    expect(full.length).toBe(EPISODES);
    expect(recovered.length).toBeGreaterThanOrEqual(EPISODES);
    expect((recovered[0]?.['metadata'] as Row)['refused_writes']).toEqual(expect.any(Number));

    figures.push(
      { target: 'disk full (8 MiB tmpfs home)', measure: 'full episodes', value: EPISODES, ok: true },
      {
        target: 'disk full (8 MiB tmpfs home)',
        measure: 'writes refused 507 storage_full',
        value: refusedTexts.length,
        ok: refusedTexts.length > 0,
      },
      { target: 'disk full (8 MiB tmpfs home)', measure: 'tasks lost', value: 0, goal: '0', ok: true },
      { target: 'disk full (8 MiB tmpfs home)', measure: 'tasks duplicated', value: 0, goal: '0', ok: true },
    );
  }, 300_000);

  it('with the workspaces on the full disk too, a /bin/sh agent that retries its receipt: no task lost or duplicated, the agent never held', async () => {
    if (skip !== '') {
      console.warn(`skipped: ${skip}`);
      return;
    }
    const fs = fsys as TestTmpfs;
    const swarm = 'onfull';
    const agent = { name: 'a', backend: { type: 'local' }, client: { command: ['/bin/sh', '-c', headlessClient(0.2)] } };
    expect(
      (
        await request(url)
          .post('/api/swarms')
          .send({ config: { name: swarm, agents: [agent] } })
      ).status,
    ).toBe(201);
    await waitFor(async () => (await request(url).get(`/api/swarms/${swarm}/agents/a`)).body.state === 'idle', 'agent idle').catch(
      async (e: Error) => {
        throw new Error(`${e.message}: ${JSON.stringify((await request(url).get(`/api/swarms/${swarm}/agents/a`)).body)}`);
      },
    );
    const accepted: string[] = [];
    let refused = 0;
    const post = (task: string): request.Test => request(url).post(`/api/swarms/${swarm}/agents/a/task`).send({ task });
    for (let ep = 0; ep < EPISODES; ep++) {
      for (let i = 0; i < 3; i++) accepted.push(String((await post(`w-before-${ep}-${i}`).expect(200)).body.id));
      fs.fill();
      for (let i = 0; i < 3; i++) {
        const r = await post(`w-refused-${ep}-${i}`);
        if (r.status === 200) accepted.push(String(r.body.id));
        else {
          expect([r.status, r.body.error]).toEqual([507, 'storage_full']);
          refused++;
        }
      }
      await new Promise((r) => setTimeout(r, 1500)); // inbox files, turn dirs and the agent's receipts meet the full disk
      expect(['idle', 'busy']).toContain((await request(url).get(`/api/swarms/${swarm}/agents/a`)).body.state);
      fs.free();
      accepted.push(String((await post(`w-after-${ep}`).expect(200)).body.id));
    }
    await waitFor(
      async () => {
        const turns = await turnsOf(url, swarm, 'a');
        return accepted.every((id) => turns.some((t) => t['item_id'] === id && t['status'] === 'completed'));
      },
      'every accepted task completed',
      { timeoutMs: 90_000 },
    ).catch(async (e: Error) => {
      const st = (await request(url).get(`/api/swarms/${swarm}/agents/a`)).body as Row;
      const ev = ((await request(url).get(`/api/swarms/${swarm}/events?limit=40`)).body.events as Row[]).map((x) => [
        x['event_type'],
        x['message'],
      ]);
      throw new Error(`${e.message}: ${JSON.stringify(st)} ${JSON.stringify(ev)}`);
    });
    await expectExactlyOnce(url, swarm, new Map([['a', accepted]]));
    expect((await request(url).get(`/api/swarms/${swarm}/agents/a`)).body.state).toBe('idle');
    await request(url).delete(`/api/swarms/${swarm}`).expect(200);
    const target = 'disk full, workspaces on it too (local /bin/sh agent)';
    figures.push(
      { target, measure: 'writes refused 507 storage_full', value: refused, ok: true },
      { target, measure: 'tasks lost', value: 0, goal: '0', ok: true },
      { target, measure: 'tasks duplicated', value: 0, goal: '0', ok: true },
    );
  }, 300_000);

  it('the database passes PRAGMA integrity_check after the outages', async () => {
    if (skip !== '') return;
    await server?.close();
    server = undefined;
    await opened?.shutdown();
    opened = undefined;
    expect(integrity(join(home, 'genswarms.db'))).toBe('ok');
    figures.push({ target: 'disk full (8 MiB tmpfs home)', measure: 'integrity_check not ok', value: 0, goal: '0', ok: true });
    recordFigures('fault-disk-full', figures);
  }, 120_000);
});
