/**
 * `GET /api/swarms/:s/agents/:a/screen` (docs/rest-api.md): a tmux agent's pane text now, read through the
 * control client (the dashboard's terminal starts from it); `null` for a headless agent. Real tmux.
 */
import { existsSync } from 'node:fs';
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

const HAVE = ['/usr/bin/tmux', '/usr/bin/cat'].every((b) => existsSync(b));
if (!HAVE) console.warn('SKIPPING the agent screen spec: tmux is missing (CI installs it)');
const describeIf = HAVE ? describe : describe.skip;
const MARK = 'SCREEN-MARK-41c9';

describeIf('agent screen (real server, real tmux)', () => {
  let s: EngineServer;

  beforeAll(async () => {
    s = await startEngineServer();
    const pane = { name: 'pane', backend: { type: 'tmux', runner: 'none' }, client: { command: ['/usr/bin/cat'] } };
    await request(s.url)
      .post('/api/swarms')
      .send({ config: { name: 'scr', agents: [pane, mockAgent('headless')] } })
      .expect(201);
    await waitFor(async () => (await request(s.url).get('/api/swarms/scr/agents/pane')).body.state === 'idle', 'the tmux agent idle');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers what the pane printed before anyone asked (the pasted turn, echoed by the pane)', async () => {
    await request(s.url).post('/api/swarms/scr/agents/pane/task').send({ task: MARK }).expect(200);
    const screen = await waitFor(async () => {
      const res = await request(s.url).get('/api/swarms/scr/agents/pane/screen').expect(200);
      const lines = res.body.screen as string[] | null;
      return lines !== null && lines.some((l) => l.includes(MARK)) ? lines : undefined;
    }, 'the mark on the pane');
    expect(Array.isArray(screen)).toBe(true);
    expect(screen.every((l) => typeof l === 'string' && !l.includes('\x1b'))).toBe(true);
  });

  it('is null for a headless agent', async () => {
    const res = await request(s.url).get('/api/swarms/scr/agents/headless/screen').expect(200);
    expect(res.body).toEqual({ screen: null });
  });

  test.each([
    ['/api/swarms/scr/agents/nope/screen', 'agent_not_found'],
    ['/api/swarms/nope/agents/pane/screen', 'swarm_not_found'],
    ['/api/swarms/scr/agents/..%2f..%2fx/screen', 'agent_not_found'],
  ])('GET %s is 404 %s', async (path, code) => {
    const res = await request(s.url).get(path);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(code);
  });

  it('is null once the swarm is stopped', async () => {
    await request(s.url).delete('/api/swarms/scr').expect(200);
    const res = await request(s.url).get('/api/swarms/scr/agents/pane/screen').expect(200);
    expect(res.body).toEqual({ screen: null });
  });
});
