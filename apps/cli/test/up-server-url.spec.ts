import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, closedPort, tempDir } from './support';

const FAKE = join(__dirname, 'fixtures', 'fake-server.cjs');
const TOKEN = 'up-url-secret-token';

describe('genswarms up records the URL it bound; the CLI uses it when GENSWARMS_URL is unset', () => {
  const dir = tempDir('gs-cli-url-');
  const home = join(dir.path, 'home');
  const env = { GENSWARMS_HOME: home, GENSWARMS_API_TOKEN: TOKEN };
  afterAll(async () => {
    await cli(['down'], env, { cwd: dir.path });
    dir.cleanup();
  });

  it('up --port N, then status without GENSWARMS_URL reaches :N; server.url is 0600 and holds no secret; down removes it', async () => {
    const port = await closedPort();
    const up = await cli(['up', '--port', String(port)], env, { cwd: dir.path, serverMain: FAKE });
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    const file = join(home, 'server.url');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const recorded = readFileSync(file, 'utf8');
    expect(JSON.parse(recorded)).toEqual({ version: 1, url: `http://127.0.0.1:${port}` });
    expect(recorded).not.toContain(TOKEN);
    const status = await cli(['status', '--json'], env, { cwd: dir.path });
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ name: 'genswarms', authorization: 'present' });
    expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('a failed up leaves no server.pid and no server.url behind', async () => {
    const r = await cli(['up'], { ...env, FAKE_SERVER_FAIL: '1' }, { cwd: dir.path, serverMain: FAKE });
    expect(r.code).toBe(2);
    expect(existsSync(join(home, 'server.pid'))).toBe(false);
    expect(existsSync(join(home, 'server.url'))).toBe(false);
  });

  it('GENSWARMS_URL wins over server.url', async () => {
    const port = await closedPort();
    writeFileSync(join(home, 'server.url'), JSON.stringify({ version: 1, url: 'http://127.0.0.1:1' }), { mode: 0o600 });
    const r = await cli(['status'], { ...env, GENSWARMS_URL: `http://127.0.0.1:${port}` }, { cwd: dir.path });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
    expect(r.stderr).toContain('URL from GENSWARMS_URL');
  });

  it('an unreachable server.url names the URL and the file it came from', async () => {
    const port = await closedPort();
    writeFileSync(join(home, 'server.url'), JSON.stringify({ version: 1, url: `http://127.0.0.1:${port}` }), { mode: 0o600 });
    const r = await cli(['status'], env, { cwd: dir.path });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
    expect(r.stderr).toContain(`URL from ${join(home, 'server.url')} (written by genswarms up)`);
  });

  it('without GENSWARMS_URL and server.url the default URL is tried and the error says so', async () => {
    const empty = join(dir.path, 'empty-home');
    const r = await cli(['status'], { GENSWARMS_HOME: empty }, { cwd: dir.path });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:4000');
    expect(r.stderr).toContain(`default URL: GENSWARMS_URL is unset and ${join(empty, 'server.url')} does not exist`);
  });

  test.each([
    ['not JSON', 'http://127.0.0.1:4000'],
    ['a wrong version', JSON.stringify({ version: 2, url: 'http://127.0.0.1:4000' })],
    ['a URL with credentials', JSON.stringify({ version: 1, url: 'http://u:p@127.0.0.1:4000' })],
    ['an extra field', JSON.stringify({ version: 1, url: 'http://127.0.0.1:4000', token: 'x' })],
    ['__proto__', '{"version":1,"url":"http://127.0.0.1:4000","__proto__":{"x":1}}'],
  ])('refuses a server.url with %s (exit 2, no request, never the default)', async (_label, text) => {
    writeFileSync(join(home, 'server.url'), text, { mode: 0o600 });
    const r = await cli(['status'], env, { cwd: dir.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^genswarms: invalid_server_url: .*server\.url/);
  });
});
