import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOnce } from '@genswarms/tools';
import { waitFor } from './support/engine-server';
import { connectSwarm } from './support/swarm-socket';
import { freePort, kill9, startServerProcess } from './support/server-process';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
let base: string;
let child: ChildProcess | undefined;

beforeAll(() => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-restart-')));
  chmodSync(base, 0o700);
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
}, 620_000);
afterAll(async () => {
  if (child !== undefined) await kill9(child);
  rmSync(base, { recursive: true, force: true });
});

describe('restart recovery over the real server process', () => {
  it('kill -9 mid-turn, start again on the same home: the turn completes once, the event arrives', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = await startServerProcess(MAIN, base, port);
    const config = {
      name: 'slow',
      agents: [{ name: 'a', backend: { type: 'mock', opts: { replies: ['done {{content}}'], delay_ms: 4000 } } }],
    };
    await request(url).post('/api/swarms').send({ config }).expect(201);
    await waitFor(async () => (await request(url).get('/api/swarms/slow/agents/a')).body.state === 'idle', 'idle');
    const sent = await request(url).post('/api/swarms/slow/agents/a/task').send({ task: 'survive' }).expect(200);
    await waitFor(async () => (await request(url).get('/api/swarms/slow/agents/a')).body.state === 'busy', 'busy');
    await kill9(child);

    child = await startServerProcess(MAIN, base, port);
    const socket = await connectSwarm(url);
    try {
      expect(await socket.ask('join', { swarm: 'slow' })).toEqual({ ok: true, swarm: 'slow' });
      const sub = await socket.ask('subscribe_events', { filters: { event_type: 'turn_completed' } });
      const recent = sub.recent_events as Array<Record<string, unknown>>;
      await waitFor(async () => recent.length > 0 || socket.pushes.some((p) => p.type === 'event'), 'turn_completed event', {
        timeoutMs: 30_000,
      });
    } finally {
      socket.close();
    }
    const turns = (await request(url).get('/api/swarms/slow/agents/a/turns')).body.turns as Array<Record<string, unknown>>;
    expect(turns.filter((t) => t.item_id === sent.body.id)).toHaveLength(1);
    expect(turns.map((t) => t.status)).toEqual(['completed']);
    expect(turns[0]?.reply_preview).toContain('done survive');
    const taskEvents = (await request(url).get('/api/swarms/slow/events?event_type=task_sent')).body.events;
    expect(taskEvents).toHaveLength(1);
    const completed = (await request(url).get('/api/swarms/slow/events?event_type=turn_completed')).body.events;
    expect(completed).toHaveLength(1);
  }, 120_000);
});
