import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer();
  await request(s.url)
    .post('/api/swarms')
    .send({ config: { name: 'ev', agents: [mockAgent('a'), mockAgent('b')] } })
    .expect(201);
  mkdirSync(join(s.skillsRoot, 'web'));
  writeFileSync(join(s.skillsRoot, 'top.md'), '# top');
  writeFileSync(join(s.skillsRoot, 'web', 'notes.md'), '# notes');
  writeFileSync(join(s.skillsRoot, 'outside-secret.txt'), 'not a skill');
  writeFileSync(join(s.home, 'secret.md'), 'SECRET');
  symlinkSync(join(s.home, 'secret.md'), join(s.skillsRoot, 'leak.md'));
});
afterAll(async () => {
  await s.close();
});

describe('events routes', () => {
  it('GET /api/events answers {events, count, query}; server_started is an engine event', async () => {
    const res = await request(s.url).get('/api/events?category=system');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: res.body.events.length, query: { category: 'system', limit: 100 } });
    expect(res.body.events.map((e: { event_type: string }) => e.event_type)).toContain('server_started');
  });

  it('auth_denied is stored as an engine event', async () => {
    await request(s.url).get('/api/swarms').set('Host', 'evil.example').expect(403);
    const res = await waitFor(async () => {
      const r = await request(s.url).get('/api/events?event_type=auth_denied');
      return r.body.count > 0 ? r.body : undefined;
    }, 'auth_denied event');
    expect(res.events[0]).toMatchObject({ level: 'warning', category: 'system', swarm: null, metadata: { reason: 'host_not_allowed' } });
  });

  it('scoped routes: {events, count, swarm[, agent]}, newest first; since_id oldest first', async () => {
    const sw = await request(s.url).get('/api/swarms/ev/events');
    expect(sw.body).toMatchObject({ swarm: 'ev', count: sw.body.events.length });
    const ids = sw.body.events.map((e: { id: number }) => e.id);
    expect([...ids].sort((x: number, y: number) => y - x)).toEqual(ids);
    const since = await request(s.url).get(`/api/swarms/ev/events?since_id=${Math.min(...ids) - 1}`);
    const up = since.body.events.map((e: { id: number }) => e.id);
    expect([...up].sort((x: number, y: number) => x - y)).toEqual(up);
    const ag = await request(s.url).get('/api/swarms/ev/agents/a/events');
    expect(ag.body).toMatchObject({ swarm: 'ev', agent: 'a' });
    expect(ag.body.events.every((e: { agent: string }) => e.agent === 'a')).toBe(true);
  });

  it('unknown swarms and agents answer empty lists, not 404', async () => {
    expect((await request(s.url).get('/api/swarms/zz/events')).body).toEqual({ events: [], count: 0, swarm: 'zz' });
    expect((await request(s.url).get('/api/swarms/ev/agents/zz/events')).body).toMatchObject({ events: [], count: 0 });
  });

  test.each([
    ['level', 'loud'],
    ['category', 'nope'],
    ['event_type', 'Bad-Type'],
    ['minutes', '0'],
    ['minutes', '525601'],
    ['limit', '1001'],
    ['since_id', '-1'],
    ['agent', '1x'],
  ])('?%s=%s → 400 invalid_query with param', async (param, value) => {
    const res = await request(s.url).get(`/api/events?${param}=${value}`);
    expect([res.status, res.body.error, res.body.param]).toEqual([400, 'invalid_query', param]);
  });
});

describe('skills routes', () => {
  it('lists .md skills with relative paths and categories, never absolute paths, never symlinks', async () => {
    const res = await request(s.url).get('/api/skills');
    expect(res.body).toEqual({
      skills: [
        { name: 'top', relative_path: 'top.md', category: 'general' },
        { name: 'notes', relative_path: 'web/notes.md', category: 'web' },
      ],
      count: 2,
    });
    expect(res.text).not.toContain(s.skillsRoot);
  });

  it('reads a skill by name, .md optional, also inside a category', async () => {
    expect((await request(s.url).get('/api/skills/top')).body).toEqual({ name: 'top', content: '# top', size: 5 });
    expect((await request(s.url).get('/api/skills/top.md')).body).toEqual({ name: 'top', content: '# top', size: 5 });
    expect((await request(s.url).get('/api/skills/notes')).body).toEqual({ name: 'notes', content: '# notes', size: 7 });
  });

  test.each([['%2E%2E'], ['.'], ['a%2Fb'], ['..%5Cx'], ['x%00y'], ['leak'], ['leak.md']])(
    'GET /api/skills/%s → 400 invalid_name',
    async (name) => {
      const res = await request(s.url).get(`/api/skills/${name}`);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_name']);
      expect(res.text).not.toContain('SECRET');
    },
  );

  it('an unknown skill → 404 not_found', async () => {
    expect((await request(s.url).get('/api/skills/missing')).body.error).toBe('not_found');
  });
});

describe('pause / resume', () => {
  it('non-docker agents are untouched and listed in skipped', async () => {
    const res = await request(s.url).post('/api/swarms/ev/pause');
    expect([res.status, res.body]).toEqual([200, { status: 'paused', swarm_name: 'ev', containers: 0, skipped: ['a', 'b'] }]);
    const back = await request(s.url).post('/api/swarms/ev/resume');
    expect([back.status, back.body]).toEqual([200, { status: 'resumed', swarm_name: 'ev', containers: 0, skipped: ['a', 'b'] }]);
  });
  it('unknown swarm → 404', async () => {
    expect((await request(s.url).post('/api/swarms/zz/pause')).body.error).toBe('swarm_not_found');
  });
});
