import request from 'supertest';
import { parse } from 'yaml';
import { mockAgent, startEngineServer } from './support/engine-server';
import type { EngineServer } from './support/engine-server';

let s: EngineServer;
const SECRET = 'sk-very-secret-value';
beforeAll(async () => {
  s = await startEngineServer();
  const config = {
    name: 'g',
    agents: [mockAgent('a', ['x'], { api_key: SECRET }), mockAgent('b')],
    objects: [
      { name: 'rec', handler: 'recorder' },
      { name: 'ticker', handler: 'tick' },
    ],
    topology: [['a', 'b']],
  };
  await request(s.url).post('/api/swarms').send({ config }).expect(201);
});
afterAll(async () => {
  await s.close();
});

describe('topology', () => {
  it('GET answers the adjacency; PATCH adds and removes (arrays and {from,to})', async () => {
    expect((await request(s.url).get('/api/swarms/g/topology')).body).toEqual({ topology: [{ from: 'a', targets: ['b'] }] });
    const res = await request(s.url)
      .patch('/api/swarms/g/topology')
      .send({ add: [['b', 'a'], { from: 'a', to: 'rec' }], remove: [{ from: 'a', to: 'b' }] });
    expect(res.body).toEqual({ status: 'ok', added: 2, removed: 1 });
    const topo = (await request(s.url).get('/api/swarms/g/topology')).body.topology;
    expect(topo).toEqual(
      expect.arrayContaining([
        { from: 'b', targets: ['a'] },
        { from: 'a', targets: ['rec'] },
      ]),
    );
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['a malformed edge among good ones (all or nothing)', { add: [['a', 'b'], ['a']] }, 'validation_failed'],
    ['a non-string endpoint', { add: [[1, 'b']] }, 'validation_failed'],
    ['an edge object with extra keys', { add: [{ from: 'a', to: 'b', x: 1 }] }, 'validation_failed'],
    ['add not a list', { add: 'a->b' }, 'validation_failed'],
    ['an unknown key', { replace: [] }, 'validation_failed'],
    ['an unknown endpoint', { add: [['a', 'ghost']] }, 'unknown_edge_endpoint'],
  ])('PATCH with %s → 400 %s and nothing changes', async (_l, body, code) => {
    const before = (await request(s.url).get('/api/swarms/g/topology')).body;
    const res = await request(s.url).patch('/api/swarms/g/topology').send(body);
    expect([res.status, res.body.error]).toEqual([400, code]);
    expect((await request(s.url).get('/api/swarms/g/topology')).body).toEqual(before);
  });

  test.each([['GET'], ['PATCH']])('%s topology of an unknown swarm → 404', async (m) => {
    const res =
      m === 'GET' ? await request(s.url).get('/api/swarms/zz/topology') : await request(s.url).patch('/api/swarms/zz/topology').send({});
    expect([res.status, res.body.error]).toEqual([404, 'swarm_not_found']);
  });
});

describe('objects', () => {
  it('lists, adds (201), details and removes objects', async () => {
    expect((await request(s.url).get('/api/swarms/g/objects')).body.objects).toEqual(
      expect.arrayContaining([{ name: 'rec', handler: 'recorder', state: 'running' }]),
    );
    const add = await request(s.url)
      .post('/api/swarms/g/objects')
      .send({ name: 'echo1', handler: 'echo', incoming: ['a'] });
    expect([add.status, add.body]).toEqual([201, { status: 'added', name: 'echo1' }]);
    expect((await request(s.url).get('/api/swarms/g/objects/echo1')).body).toMatchObject({
      object: { name: 'echo1', handler: 'echo' },
      state: 'running',
    });
    expect((await request(s.url).delete('/api/swarms/g/objects/echo1')).body).toEqual({ status: 'removed', name: 'echo1' });
    expect((await request(s.url).get('/api/swarms/g/objects/echo1')).status).toBe(404);
  });

  test.each<[string, string, string, Record<string, unknown>, number, string]>([
    ['add: invalid name', 'post', '/api/swarms/g/objects', { name: '_x', handler: 'echo' }, 400, 'invalid_name'],
    ['add: unregistered handler', 'post', '/api/swarms/g/objects', { name: 'o1', handler: 'nope' }, 400, 'invalid_handler'],
    ['add: handler as a module path', 'post', '/api/swarms/g/objects', { name: 'o2', handler: '../../evil.js' }, 400, ''],
    ['add: already exists', 'post', '/api/swarms/g/objects', { name: 'rec', handler: 'echo' }, 400, 'already_exists'],
    [
      'add: unknown edge endpoint',
      'post',
      '/api/swarms/g/objects',
      { name: 'o3', handler: 'echo', connections: ['ghost'] },
      400,
      'unknown_edge_endpoint',
    ],
    ['get: unknown object', 'get', '/api/swarms/g/objects/none', {}, 404, 'object_not_found'],
    ['delete: unknown object', 'delete', '/api/swarms/g/objects/none', {}, 404, 'object_not_found'],
    ['get: off-grammar object', 'get', '/api/swarms/g/objects/%2E%2E', {}, 404, 'object_not_found'],
    ['list: unknown swarm', 'get', '/api/swarms/zz/objects', {}, 404, 'swarm_not_found'],
    ['patch: config not an object', 'patch', '/api/swarms/g/objects/ticker/config', { config: 5 }, 400, 'validation_failed'],
    [
      'patch: host-escape key',
      'patch',
      '/api/swarms/g/objects/ticker/config',
      { config: { extra_path: ['/'] } },
      422,
      'forbidden_config_keys',
    ],
    ['patch: no config schema', 'patch', '/api/swarms/g/objects/rec/config', { config: { a: 1 } }, 422, 'no_config_schema'],
    ['patch: unknown object', 'patch', '/api/swarms/g/objects/none/config', { config: {} }, 404, 'object_not_found'],
  ])('%s → %s %s', async (_l, method, path, body, status, code) => {
    const agent = request(s.url) as unknown as Record<string, (p: string) => request.Test>;
    const res = await (agent[method] as (p: string) => request.Test)(path).send(body);
    expect(res.status).toBe(status);
    if (code !== '') expect(res.body.error).toBe(code);
  });

  it('patch: more than 200 keys → 400 patch_too_large', async () => {
    const config = { interval_ms: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) };
    const res = await request(s.url).patch('/api/swarms/g/objects/ticker/config').send({ config });
    expect([res.status, res.body.error]).toEqual([400, 'patch_too_large']);
  });
});

describe('overlay and snapshot', () => {
  it('overlay lists the accepted mutations (redacted); unknown swarms answer []', async () => {
    const ov = await request(s.url).get('/api/swarms/g/overlay');
    expect(ov.status).toBe(200);
    expect(ov.body.swarm).toBe('g');
    expect(ov.body.events.map((e: { op: string }) => e.op)).toEqual(expect.arrayContaining(['add_topology_edges']));
    expect(ov.body.events[0]).toEqual(
      expect.objectContaining({
        seq: expect.any(Number),
        op: expect.any(String),
        payload: expect.any(Object),
        timestamp: expect.any(String),
      }),
    );
    for (const name of ['zz', 'bad!name'])
      expect((await request(s.url).get(`/api/swarms/${name}/overlay`)).body).toEqual({ swarm: name, events: [] });
  });

  it('snapshot JSON and YAML: effective config, secret redacted everywhere', async () => {
    const json = await request(s.url).post('/api/swarms/g/snapshot');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body.name).toBe('g');
    expect(json.body.agents.find((a: { name: string }) => a.name === 'a').api_key).toBe('[REDACTED]');
    expect(json.text).not.toContain(SECRET);
    const yaml = await request(s.url).post('/api/swarms/g/snapshot?format=yaml');
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(yaml.text).not.toContain(SECRET);
    expect(parse(yaml.text)).toEqual(json.body);
  });

  it('snapshot errors: bad format → 400 invalid_query, unknown swarm → 404', async () => {
    expect((await request(s.url).post('/api/swarms/g/snapshot?format=xml')).body).toMatchObject({
      error: 'invalid_query',
      param: 'format',
    });
    expect((await request(s.url).post('/api/swarms/zz/snapshot')).body.error).toBe('swarm_not_found');
  });

  it('DELETE overlay clears it', async () => {
    expect((await request(s.url).delete('/api/swarms/g/overlay')).body).toEqual({ status: 'cleared', swarm: 'g' });
    expect((await request(s.url).get('/api/swarms/g/overlay')).body.events).toEqual([]);
  });
});
