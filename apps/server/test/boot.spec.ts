import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { loadServerConfig, runMain } from '../src/index';
import type { RunningServer, ServerEnv } from '../src/index';
import { captureStream, startTestServer, tempDir, testConfig } from './support/harness';

const dir = tempDir('gs-boot-');
const uid = process.getuid?.() ?? 0;
const baseEnv = (extra: ServerEnv = {}): ServerEnv => ({
  GENSWARMS_HOME: join(dir.path, 'home'),
  GENSWARMS_SWARM_CONFIG_DIR: dir.path,
  ...extra,
});

afterAll(() => dir.cleanup());

describe('loadServerConfig refuses to start on invalid variables', () => {
  test.each<[string, ServerEnv, string]>([
    [
      'a hostname bind',
      { GENSWARMS_HTTP_IP: 'localhost' },
      'genswarms: invalid GENSWARMS_HTTP_IP "localhost": expected an IPv4 or IPv6 address',
    ],
    [
      'a bind with port',
      { GENSWARMS_HTTP_IP: '0.0.0.0:4000' },
      'genswarms: invalid GENSWARMS_HTTP_IP "0.0.0.0:4000": expected an IPv4 or IPv6 address',
    ],
    ['a bracketed bind', { GENSWARMS_HTTP_IP: '[::1]' }, 'genswarms: invalid GENSWARMS_HTTP_IP "[::1]": expected an IPv4 or IPv6 address'],
    [
      'an out-of-range bind',
      { GENSWARMS_HTTP_IP: '999.999.999.999' },
      'genswarms: invalid GENSWARMS_HTTP_IP "999.999.999.999": expected an IPv4 or IPv6 address',
    ],
    ['a short-form bind', { GENSWARMS_HTTP_IP: '127.1' }, 'genswarms: invalid GENSWARMS_HTTP_IP "127.1": expected an IPv4 or IPv6 address'],
    ['a word port', { PORT: 'abc' }, 'genswarms: invalid PORT: "abc": expected an integer from 1 to 65535'],
    ['port 0', { PORT: '0' }, 'genswarms: invalid PORT: "0": expected an integer from 1 to 65535'],
    ['port 65536', { PORT: '65536' }, 'genswarms: invalid PORT: "65536": expected an integer from 1 to 65535'],
    ['a negative port', { PORT: '-1' }, 'genswarms: invalid PORT: "-1": expected an integer from 1 to 65535'],
    [
      'a zero agent cap',
      { GENSWARMS_MAX_AGENTS_PER_SWARM: '0' },
      'genswarms: invalid GENSWARMS_MAX_AGENTS_PER_SWARM: "0": expected an integer from 1 to 100000',
    ],
    [
      'a huge agent cap',
      { GENSWARMS_MAX_AGENTS_PER_SWARM: '100001' },
      'genswarms: invalid GENSWARMS_MAX_AGENTS_PER_SWARM: "100001": expected an integer from 1 to 100000',
    ],
    [
      'a non-URL LLM endpoint',
      { GENSWARMS_LLM_ENDPOINT: 'llm.local:8080' },
      'genswarms: invalid GENSWARMS_LLM_ENDPOINT: expected an http or https URL with a host',
    ],
    [
      'an ftp LLM endpoint',
      { GENSWARMS_LLM_ENDPOINT: 'ftp://llm.local' },
      'genswarms: invalid GENSWARMS_LLM_ENDPOINT: expected an http or https URL with a host',
    ],
    [
      'a missing config dir',
      { GENSWARMS_SWARM_CONFIG_DIR: '/nonexistent/gs' },
      'genswarms: invalid GENSWARMS_SWARM_CONFIG_DIR: directory does not exist or cannot be resolved',
    ],
  ])('%s', async (_label, extra, line) => {
    const res = await loadServerConfig(baseEnv(extra), { cwd: dir.path, uid });
    expect(res).toMatchObject({ kind: 'invalid', line });
  });

  it('accepts the defaults and keeps tokens verbatim', async () => {
    const res = await loadServerConfig(baseEnv({ GENSWARMS_API_TOKEN: ' spaced ', GENSWARMS_CONFIG_API_TOKEN: '   ', PORT: '4100' }), {
      cwd: dir.path,
      uid,
    });
    expect(res.kind).toBe('ok');
    if (res.kind !== 'ok') return;
    expect(res.config).toMatchObject({
      bindAddress: '127.0.0.1',
      port: 4100,
      tokens: { fullToken: ' spaced ', configToken: undefined },
      cors: { kind: 'local' },
      configDir: dir.path,
      maxAgentsPerSwarm: 100,
    });
  });
});

describe('GENSWARMS_HOME checks', () => {
  it('creates a missing home with mode 0700', async () => {
    const home = join(dir.path, 'fresh', 'home');
    const res = await loadServerConfig(baseEnv({ GENSWARMS_HOME: home }), { cwd: dir.path, uid });
    expect(res.kind).toBe('ok');
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing private home to 0700', async () => {
    const home = join(dir.path, 'loose');
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    expect((await loadServerConfig(baseEnv({ GENSWARMS_HOME: home }), { cwd: dir.path, uid })).kind).toBe('ok');
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  type Setup = () => string;
  test.each<[string, Setup, string]>([
    [
      'a symlink',
      () => {
        mkdirSync(join(dir.path, 'real-home'));
        symlinkSync(join(dir.path, 'real-home'), join(dir.path, 'link-home'));
        return join(dir.path, 'link-home');
      },
      'is a symlink',
    ],
    [
      'a regular file',
      () => {
        writeFileSync(join(dir.path, 'file-home'), '');
        return join(dir.path, 'file-home');
      },
      'is not a directory',
    ],
    [
      'world-writable',
      () => {
        mkdirSync(join(dir.path, 'ww-home'));
        chmodSync(join(dir.path, 'ww-home'), 0o777);
        return join(dir.path, 'ww-home');
      },
      'is group- or world-writable',
    ],
    [
      'group-writable',
      () => {
        mkdirSync(join(dir.path, 'gw-home'));
        chmodSync(join(dir.path, 'gw-home'), 0o770);
        return join(dir.path, 'gw-home');
      },
      'is group- or world-writable',
    ],
    [
      'owned by someone else',
      () => {
        mkdirSync(join(dir.path, 'other-home'), { mode: 0o700 });
        chownSync(join(dir.path, 'other-home'), uid + 4242, 0);
        return join(dir.path, 'other-home');
      },
      'is not owned by the server user',
    ],
  ])('refuses a home that is %s', async (_label, setup, reason) => {
    const res = await loadServerConfig(baseEnv({ GENSWARMS_HOME: setup() }), { cwd: dir.path, uid });
    expect(res).toMatchObject({ kind: 'invalid', line: `genswarms: invalid GENSWARMS_HOME: ${reason}` });
  });
});

function exitCatcher(): { exit: (code: number) => void; code: () => number | undefined } {
  let code: number | undefined;
  return { exit: (c) => (code = c), code: () => code };
}

describe('runMain', () => {
  it('prints one line, exits 2 and binds nothing for an invalid PORT', async () => {
    const out = captureStream();
    const err = captureStream();
    const exit = exitCatcher();
    const server = await runMain({
      env: baseEnv({ PORT: '80x', GENSWARMS_HTTP_IP: '127.0.0.1' }),
      cwd: dir.path,
      uid,
      stdout: out.stream,
      stderr: err.stream,
      exit: exit.exit,
    });
    expect(server).toBeUndefined();
    expect(exit.code()).toBe(2);
    expect(err.text()).toBe('genswarms: invalid PORT: "80x": expected an integer from 1 to 65535\n');
    expect(out.text()).toBe('');
  });

  it('prints exactly one stdout line with the bind address and port', async () => {
    const out = captureStream();
    const err = captureStream();
    const exit = exitCatcher();
    const probe = await startTestServer(testConfig(dir.path)); // find a free port, then release it
    const port = probe.server.port;
    await probe.close();
    const server = (await runMain({
      env: baseEnv({ PORT: String(port) }),
      cwd: dir.path,
      uid,
      stdout: out.stream,
      stderr: err.stream,
      exit: exit.exit,
    })) as RunningServer;
    try {
      expect(out.text()).toBe(`genswarms: listening on http://127.0.0.1:${port}\n`);
      expect(server.address).toBe('127.0.0.1');
      expect(exit.code()).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

function tryConnect(host: string, port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

describe('bind address', () => {
  it('listens on 127.0.0.1 only: 127.0.0.2 is refused', async () => {
    const s = await startTestServer(testConfig(dir.path));
    try {
      expect(await tryConnect('127.0.0.1', s.server.port)).toBe('connected');
      expect(await tryConnect('127.0.0.2', s.server.port)).toBe('ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('brackets an IPv6 bind address in the URL and the listening line', async () => {
    const s = await startTestServer(testConfig(dir.path, { bindAddress: '::1' }));
    try {
      expect(s.url).toBe(`http://[::1]:${s.server.port}`);
      expect(s.stdout()).toBe(`genswarms: listening on http://[::1]:${s.server.port}\n`);
      expect(await tryConnect('127.0.0.1', s.server.port)).toBe('ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('logs an insecure_bind warning when bound to a non-loopback address without a full token, not with one', async () => {
    const open = await startTestServer(testConfig(dir.path, { bindAddress: '0.0.0.0' }));
    const tokened = await startTestServer(testConfig(dir.path, { bindAddress: '0.0.0.0', tokens: { fullToken: 't' } }));
    try {
      const warning = open
        .logs()
        .split('\n')
        .filter((l) => l.includes('insecure_bind'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(warning).toEqual([expect.objectContaining({ level: 'warn', message: 'insecure_bind', bind: '0.0.0.0' })]);
      expect(String(warning[0]?.['detail'])).toContain('without GENSWARMS_API_TOKEN');
      expect(open.stdout()).toBe(`genswarms: listening on http://0.0.0.0:${open.server.port}\n`);
      expect(open.stderr()).toBe('');
      expect(tokened.logs()).not.toContain('insecure_bind');
    } finally {
      await open.close();
      await tokened.close();
    }
  });
});
