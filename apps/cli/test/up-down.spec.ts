import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { cli, closedPort, tempDir } from './support';

const FAKE = join(__dirname, 'fixtures', 'fake-server.cjs');
const REAL = resolve(__dirname, '..', '..', 'server', 'dist', 'main.js');
const TOKEN = 'up-down-secret-token';

describe('genswarms up / down (detached server process)', () => {
  const dir = tempDir('gs-cli-up-');
  const home = join(dir.path, 'home');
  const env = { GENSWARMS_HOME: home, GENSWARMS_API_TOKEN: TOKEN };
  afterAll(async () => {
    await cli(['down'], env, { cwd: dir.path, serverMain: FAKE });
    dir.cleanup();
  });

  it('starts the server, writes server.pid and server.log 0600, hands the token over on fd 3 (not env, not argv)', async () => {
    const up = await cli(['up'], env, { cwd: dir.path, serverMain: FAKE });
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    const url = /on (http:\/\/\S+)/.exec(up.stdout)?.[1];
    expect(url).toBeDefined();
    const pid = Number(readFileSync(join(home, 'server.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(1);
    expect(statSync(join(home, 'server.pid')).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'server.log')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const seen = (await (await fetch(`${url}/`)).json()) as { seen: { argv: string[]; tokenInEnv: boolean; handedOver: string[] | null } };
    expect(seen.seen).toEqual({ argv: [], tokenInEnv: false, handedOver: ['GENSWARMS_API_TOKEN'] });
    expect(up.stdout).not.toContain(TOKEN);
  });

  it('answers 0 when already running', async () => {
    const again = await cli(['up'], env, { cwd: dir.path, serverMain: FAKE });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already running');
  });

  it('down stops it and removes server.pid', async () => {
    const pid = Number(readFileSync(join(home, 'server.pid'), 'utf8'));
    const down = await cli(['down'], env, { cwd: dir.path });
    expect(down.code).toBe(0);
    expect(existsSync(join(home, 'server.pid'))).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect((await cli(['down'], env, { cwd: dir.path })).stdout).toContain('not running');
  });

  it('relays a refusing server: its line on stderr and exit 2', async () => {
    const r = await cli(['up'], { ...env, FAKE_SERVER_FAIL: '1' }, { cwd: dir.path, serverMain: FAKE });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('genswarms: invalid PORT:');
  });
});

describe('genswarms up with the real server entry', () => {
  beforeAll(() => {
    const built = buildOnce([resolve(__dirname, '..', '..', 'server', 'tsconfig.lib.json')]);
    if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);
  }, 600_000);

  const dir = tempDir('gs-cli-real-');
  afterAll(() => dir.cleanup());

  it('starts on --port, answers GET / with the token, refuses an invalid bind with exit 2, and stops', async () => {
    const port = await closedPort();
    const env = { GENSWARMS_HOME: join(dir.path, 'home'), GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_URL: `http://127.0.0.1:${port}` };
    const up = await cli(['up', '--port', String(port)], env, { cwd: dir.path, serverMain: REAL });
    try {
      expect(up.stderr).toBe('');
      expect(up.stdout).toContain(`http://127.0.0.1:${port}`);
      expect((await cli(['status', '--json'], env, { cwd: dir.path })).stdout).toBe('{"swarms":[]}\n');
      expect((await cli(['status'], { ...env, GENSWARMS_API_TOKEN: 'wrong' }, { cwd: dir.path })).code).toBe(4);
      expect(readFileSync(join(dir.path, 'home', 'server.log'), 'utf8')).not.toContain(TOKEN);
    } finally {
      expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    }
    const bad = await cli(['up'], { ...env, GENSWARMS_HTTP_IP: 'localhost' }, { cwd: dir.path, serverMain: REAL });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('genswarms: invalid GENSWARMS_HTTP_IP "localhost": expected an IPv4 or IPv6 address');
  });
});
