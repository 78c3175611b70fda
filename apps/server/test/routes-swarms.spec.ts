import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer();
});
afterAll(async () => {
  await s.close();
});

const basic = (name: string): Record<string, unknown> => ({ name, agents: [mockAgent('a'), mockAgent('b')], topology: [['a', 'b']] });

describe('POST /api/swarms', () => {
  it('starts an inline config: 201 created, then listed and detailed', async () => {
    const res = await request(s.url)
      .post('/api/swarms')
      .send({ config: basic('inl') });
    expect([res.status, res.body]).toEqual([201, { status: 'created', swarm_name: 'inl' }]);
    const list = await request(s.url).get('/api/swarms');
    expect(list.body.swarms).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'inl', status: 'running', agent_count: 2, object_count: 0 })]),
    );
    const detail = await request(s.url).get('/api/swarms/inl');
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ name: 'inl', status: 'running', agent_count: 2, topology: [{ from: 'a', targets: ['b'] }] });
    expect(detail.body.agents.map((a: { name: string }) => a.name).sort()).toEqual(['a', 'b']);
  });

  it('starts a config_path file confined to the config dir', async () => {
    s.writeConfig('file.yaml', 'name: fromfile\nagents:\n  - name: a\n    backend: {type: mock, opts: {replies: ["x"]}}\n');
    const res = await request(s.url).post('/api/swarms').send({ config_path: 'file.yaml' });
    expect([res.status, res.body]).toEqual([201, { status: 'created', swarm_name: 'fromfile' }]);
  });

  test.each<[string, Record<string, unknown>, number, string]>([
    ['neither field', {}, 400, 'validation_failed'],
    ['both fields', { config: basic('x1'), config_path: 'file.yaml' }, 400, 'validation_failed'],
    ['an extra field', { config: basic('x2'), name: 'x' }, 400, 'validation_failed'],
    ['path traversal', { config_path: '../../etc/passwd.json' }, 400, 'invalid_config_path'],
    ['absolute path outside', { config_path: '/etc/passwd' }, 400, 'invalid_config_path'],
    ['non-string path', { config_path: 42 }, 400, 'invalid_config_path'],
    ['NUL in path', { config_path: 'a\u0000.json' }, 400, 'invalid_config_path'],
    ['unsupported extension', { config_path: 'x.js' }, 400, 'unsupported_format'],
    ['missing file', { config_path: 'missing.json' }, 400, 'config_unreadable'],
    ['schema failure', { config: { name: 'bad name!', agents: [] } }, 400, 'validation_failed'],
    ['duplicate agent names', { config: { name: 'dup', agents: [mockAgent('a'), mockAgent('a')] } }, 400, 'validation_failed'],
    ['already running', { config: basic('inl') }, 400, 'already_exists'],
    [
      'runner plan refusal',
      { config: { name: 'plan', agents: [{ name: 'a', backend: { type: 'local' }, network: 'none' }] } },
      400,
      'unsupported_network',
    ],
  ])('%s → %s %s', async (_label, body, status, code) => {
    const res = await request(s.url).post('/api/swarms').send(body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    if (code === 'unsupported_network') expect(res.body.agent).toBe('a');
    expect(typeof res.body.message).toBe('string');
    expect(JSON.stringify(res.body)).not.toContain(s.configDir);
  });
});

describe('swarm detail, stop, restart', () => {
  test.each([['nope'], ['bad%20name'], ['9starts-with-digit'], ['a'.repeat(65)]])(
    'GET /api/swarms/%s → 404 swarm_not_found',
    async (name) => {
      const res = await request(s.url).get(`/api/swarms/${name}`);
      expect([res.status, res.body.error]).toEqual([404, 'swarm_not_found']);
    },
  );

  it('DELETE stops (still known, 200 on detail), ?purge=true forgets it', async () => {
    await request(s.url)
      .post('/api/swarms')
      .send({ config: basic('stopme') })
      .expect(201);
    expect((await request(s.url).delete('/api/swarms/stopme')).body).toEqual({ status: 'stopped', swarm_name: 'stopme' });
    expect((await request(s.url).get('/api/swarms/stopme')).body).toMatchObject({ name: 'stopme', status: 'stopped' });
    expect((await request(s.url).delete('/api/swarms/stopme?purge=true')).body).toEqual({ status: 'purged', swarm_name: 'stopme' });
    expect((await request(s.url).get('/api/swarms/stopme')).status).toBe(404);
  });

  test.each([
    ['DELETE', '/api/swarms/ghost'],
    ['POST', '/api/swarms/ghost/restart'],
    ['DELETE', '/api/swarms/bad!name'],
  ])('%s %s → 404', async (method, path) => {
    const res = await request(s.url)[method === 'DELETE' ? 'delete' : 'post'](path);
    expect([res.status, res.body.error]).toEqual([404, 'swarm_not_found']);
  });

  test.each([['purge=yes'], ['purge=1'], ['purge=true&purge=true']])('DELETE ?%s → 400 invalid_query', async (q) => {
    const res = await request(s.url).delete(`/api/swarms/inl?${q}`);
    expect([res.status, res.body.error, res.body.param]).toEqual([400, 'invalid_query', 'purge']);
  });

  it('POST restart (?delete=true) answers restarted with delete_data', async () => {
    await request(s.url)
      .post('/api/swarms')
      .send({ config: basic('rs') })
      .expect(201);
    expect((await request(s.url).post('/api/swarms/rs/restart')).body).toEqual({
      status: 'restarted',
      swarm_name: 'rs',
      delete_data: false,
    });
    expect((await request(s.url).post('/api/swarms/rs/restart?delete=true')).body).toEqual({
      status: 'restarted',
      swarm_name: 'rs',
      delete_data: true,
    });
    await waitFor(async () => (await request(s.url).get('/api/swarms/rs')).body.status === 'running', 'running again');
  });
});

describe('messages', () => {
  it('POST message routes along an edge and the log lists it', async () => {
    const res = await request(s.url).post('/api/swarms/inl/message').send({ from: 'a', to: 'b', content: 'hello' });
    expect(res.body).toEqual({ status: 'routed', from: 'a', to: 'b', swarm: 'inl' });
    const log = await waitFor(async () => {
      const r = await request(s.url).get('/api/swarms/inl/messages');
      return r.body.messages.length > 0 ? r.body.messages : undefined;
    }, 'message log');
    expect(log[0]).toMatchObject({ from: 'a', to: 'b', type: 'direct', content_preview: 'hello' });
  });

  test.each<[string, Record<string, unknown>]>([
    ['missing content', { from: 'a', to: 'b' }],
    ['numeric to', { from: 'a', to: 5, content: 'x' }],
    ['object from', { from: {}, to: 'b', content: 'x' }],
  ])('POST message with %s → 400 validation_failed', async (_l, body) => {
    const res = await request(s.url).post('/api/swarms/inl/message').send(body);
    expect([res.status, res.body.error]).toEqual([400, 'validation_failed']);
  });

  it('fields never come from the query string', async () => {
    const res = await request(s.url).post('/api/swarms/inl/message?from=a&to=b&content=x').send({});
    expect([res.status, res.body.error]).toEqual([400, 'validation_failed']);
  });

  test.each([['0'], ['1001'], ['abc'], ['-1'], ['1.5']])('GET messages?limit=%s → 400 invalid_query', async (limit) => {
    const res = await request(s.url).get(`/api/swarms/inl/messages?limit=${limit}`);
    expect([res.status, res.body.error, res.body.param]).toEqual([400, 'invalid_query', 'limit']);
  });

  it('unknown swarm → 404 for message and messages', async () => {
    expect((await request(s.url).post('/api/swarms/ghost/message').send({ from: 'a', to: 'b', content: 'x' })).status).toBe(404);
    expect((await request(s.url).get('/api/swarms/ghost/messages')).status).toBe(404);
  });
});
