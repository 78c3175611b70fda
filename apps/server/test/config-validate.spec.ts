import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const root = tempDir('gs-validate-');
const base = join(root.path, 'configs');
const VALID = {
  name: 'demo',
  agents: [
    { name: 'a', backend: 'mock' },
    { name: 'b', backend: 'mock' },
  ],
  topology: [['a', 'b']],
};
let server: TestServer;

beforeAll(async () => {
  mkdirSync(join(base, 'sub'), { recursive: true });
  mkdirSync(join(root.path, 'configs_evil'));
  writeFileSync(join(base, 'ok.json'), JSON.stringify(VALID));
  writeFileSync(join(base, 'sub', 'ok.yaml'), 'name: demo\nagents:\n  - { name: a, backend: mock }\n');
  writeFileSync(join(base, 'broken.json'), '{"name":');
  writeFileSync(join(base, 'big.json'), Buffer.alloc(1048577, 0x20));
  writeFileSync(join(root.path, 'outside.json'), JSON.stringify(VALID));
  writeFileSync(join(root.path, 'configs_evil', 'x.json'), JSON.stringify(VALID));
  symlinkSync(join(root.path, 'outside.json'), join(base, 'escape.json'));
  mkdirSync(join(base, 'dir.json'));
  server = await startTestServer(testConfig(base));
});
afterAll(async () => {
  await server.close();
  root.cleanup();
});

const post = (body: unknown) =>
  request(server.url)
    .post('/api/config/validate')
    .send(body as object);

describe('POST /api/config/validate', () => {
  it('validates an inline config and summarises it', async () => {
    const res = await post({ config: VALID });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      format: 'json',
      config: { name: 'demo', agent_count: 2, object_count: 0, edge_count: 1, agents: ['a', 'b'], objects: [] },
    });
  });

  test.each([
    [{ name: 'a', backend: { type: 'tmux' }, client: 'codex', network: 'isolated' }, 'isolated'],
    [{ name: 'a', backend: 'local', network: 'NONE' }, 'none'],
    [{ name: 'a', backend: { type: 'tmux', runner: 'bwrap' }, client: 'claude', network: 'isolated' }, 'isolated'],
  ])('refuses a network the backend cannot enforce, as start would (%#)', async (agent, network) => {
    const res = await post({ config: { name: 'demo', agents: [agent] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ valid: false, error: 'unsupported_network', agent: 'a', network });
  });

  test.each([
    ['ok.json', 'json'],
    ['sub/ok.yaml', 'yaml'],
  ])('validates config_path %s', async (p, format) => {
    const res = await post({ config_path: p });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, format, config: { name: 'demo' } });
  });

  test.each([
    ['{"name":"demo","agents":[{"name":"a","backend":"mock"}]}', 'json'],
    ['name: demo\nagents: [{name: a, backend: mock}]\n', 'yaml'],
    ['name: demo\nagents: [{name: a, backend: mock}]\n', 'yml'],
  ])('validates content in %#', async (content, format) => {
    const res = await post({ content, format });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, format });
  });

  test.each<[string, unknown, string]>([
    ['an empty body', {}, 'validation_failed'],
    ['both config and config_path', { config: VALID, config_path: 'ok.json' }, 'validation_failed'],
    ['an unknown key', { config: VALID, extra: 1 }, 'validation_failed'],
    ['content without format', { content: '{}' }, 'validation_failed'],
    ['non-string content', { content: 5, format: 'json' }, 'validation_failed'],
    ['an invalid inline config', { config: { name: 'x' } }, 'validation_failed'],
    ['an inline config with a duplicate name', { config: { name: 'x', agents: [{ name: 'a' }, { name: 'a' }] } }, 'validation_failed'],
    ['a bad format', { content: '{}', format: 'toml' }, 'unsupported_format'],
    ['unparseable content', { content: '{"a":', format: 'json' }, 'config_parse_error'],
    ['an absolute path', { config_path: '/etc/passwd' }, 'invalid_config_path'],
    ['.. traversal', { config_path: '../outside.json' }, 'invalid_config_path'],
    ['the sibling prefix trap', { config_path: `${root.path}/configs_evil/x.json` }, 'invalid_config_path'],
    ['a symlink escape', { config_path: 'escape.json' }, 'invalid_config_path'],
    ['home expansion', { config_path: '~/x.json' }, 'invalid_config_path'],
    ['a non-string path', { config_path: ['ok.json'] }, 'invalid_config_path'],
    ['an empty path', { config_path: '' }, 'invalid_config_path'],
    ['a .js file', { config_path: 'x.js' }, 'unsupported_format'],
    ['a missing file', { config_path: 'missing.json' }, 'config_unreadable'],
    ['a directory named x.json', { config_path: 'dir.json' }, 'config_unreadable'],
    ['an oversize file', { config_path: 'big.json' }, 'config_too_large'],
    ['a broken file', { config_path: 'broken.json' }, 'config_parse_error'],
  ])('refuses %s with 400 %s and no host path in the answer', async (_label, body, code) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ valid: false, error: code, message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain(root.path);
  });

  it('refuses NUL in config_path', async () => {
    const res = await request(server.url)
      .post('/api/config/validate')
      .set('Content-Type', 'application/json')
      .send('{"config_path":"ok.json\\u0000"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_config_path');
  });
});
