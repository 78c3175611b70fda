import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildClientArgv, buildClientEnv, createBwrapRunner, planMounts } from '../src/index';
import { ECHO_ARGV, makeContext, makeSandboxDirs, makeSpec } from './support';

describe('plan-time rules', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  describe('clients (docs/runners.md)', () => {
    it.each([
      ['codex', false, ['codex', '--no-daemon', '--model', 'm']],
      ['codex', true, ['codex', '--no-daemon', '--model', 'm', '--dangerously-bypass-approvals-and-sandbox']],
      ['claude', false, ['claude', '--model', 'm']],
      ['claude', true, ['claude', '--model', 'm', '--dangerously-skip-permissions']],
      ['opencode', true, ['opencode', '--model', 'm']],
    ] as const)('%s with unsafe_bypass=%s → %j', (client, unsafeBypass, argv) => {
      const spec = makeSpec({ workspace: dirs.workspace, backend: 'tmux', client, model: 'm', unsafeBypass });
      expect(buildClientArgv(spec, makeContext(dirs.home), 'sandbox')).toEqual(argv);
    });

    it.each([
      ['--dangerously-bypass-approvals-and-sandbox'],
      ['--yolo'],
      ['--dangerously-skip-permissions'],
      ['--allow-dangerously-skip-permissions'],
      ['--permission-mode', 'bypassPermissions'],
      ['--permission-mode=bypassPermissions'],
      ['--yolo=true'],
    ])('refuses a command with %s unless unsafe_bypass (bypass_requires_opt_in)', (...flags) => {
      const spec = makeSpec({ workspace: dirs.workspace, client: { command: [process.execPath, ...flags] } });
      expect(() => buildClientArgv(spec, makeContext(dirs.home), 'host')).toThrow(
        expect.objectContaining({ code: 'bypass_requires_opt_in' }),
      );
      expect(buildClientArgv({ ...spec, unsafeBypass: true }, makeContext(dirs.home), 'host')).toEqual([process.execPath, ...flags]);
    });

    it('runs genswarms-agent as node + the agent entry; in a sandbox from /run/genswarms/agent', () => {
      const spec = makeSpec({ workspace: dirs.workspace });
      const ctx = makeContext(dirs.home);
      expect(buildClientArgv(spec, ctx, 'host')).toEqual([process.execPath, ECHO_ARGV]);
      expect(buildClientArgv(spec, ctx, 'sandbox')).toEqual([process.execPath, '/run/genswarms/agent/echo-argv.js']);
    });

    it('replaces the executable with agent_binary_path (host path; /run/genswarms/bin/<name> in a sandbox)', () => {
      const spec = makeSpec({
        workspace: dirs.workspace,
        client: { command: ['python3', '-m', 'x'] },
        config: { agent_binary_path: ECHO_ARGV },
      });
      expect(buildClientArgv(spec, makeContext(dirs.home), 'host')).toEqual([ECHO_ARGV, '-m', 'x']);
      expect(buildClientArgv(spec, makeContext(dirs.home), 'sandbox')).toEqual(['/run/genswarms/bin/echo-argv.js', '-m', 'x']);
    });

    it.each([
      ['an empty word', ['x', ''], 'invalid_argv'],
      ['a NUL', ['x', 'a\0b'], 'invalid_argv'],
      ['no word', [], 'validation_failed'],
      ['257 words', Array.from({ length: 257 }, () => 'w'), 'validation_failed'],
      ['a missing host executable', ['definitely-not-installed-gs'], 'binary_missing'],
      ['a relative path', ['./x'], 'binary_missing'],
    ])('refuses a command with %s', (_n, command, code) => {
      const spec = makeSpec({ workspace: dirs.workspace, client: { command } });
      expect(() => buildClientArgv(spec, makeContext(dirs.home), 'host')).toThrow(expect.objectContaining({ code }));
    });
  });

  describe('client env (docs/security.md, docs/runners.md)', () => {
    const llm = { defaultEndpoint: 'https://llm.example/v1', serverApiKey: 'sk-server', allowedHosts: ['llm.example'] };

    it('withholds the server key from an untrusted endpoint, with a notice', () => {
      const spec = makeSpec({ workspace: dirs.workspace, endpoint: 'https://evil.example/v1' });
      const { env, notices } = buildClientEnv(spec, makeContext(dirs.home, { llm }), {
        sandbox: false,
        workspace: dirs.workspace,
        home: '/h',
      });
      expect(env['GENSWARMS_LLM_ENDPOINT']).toBe('https://evil.example/v1');
      expect(env['GENSWARMS_LLM_API_KEY']).toBeUndefined();
      expect(notices).toEqual(['api_key_withheld']);
    });

    it('gives network none no endpoint and no key, even its own', () => {
      const spec = makeSpec({ workspace: dirs.workspace, backend: 'bwrap', network: 'none', apiKey: 'own' });
      const { env } = buildClientEnv(spec, makeContext(dirs.home, { llm }), { sandbox: true, workspace: '/workspace', home: '/root' });
      expect(Object.keys(env).filter((k) => k.startsWith('GENSWARMS_LLM'))).toEqual([]);
    });

    it('points an isolated agent at the in-sandbox bridge with the pinned host', () => {
      const spec = makeSpec({ workspace: dirs.workspace, backend: 'bwrap', network: 'isolated' });
      const plan = createBwrapRunner().plan(spec, makeContext(dirs.home, { llm }));
      expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBe('http://127.0.0.1:17080/v1');
      expect(plan.env['GENSWARMS_LLM_UPSTREAM_HOST']).toBe('llm.example');
      expect(plan.env['GENSWARMS_LLM_API_KEY']).toBe('sk-server');
      expect(plan.mounts).toContainEqual({
        host: path.join(dirs.home, 'egress', 'swarm1', 'agent1'),
        sandbox: '/run/genswarms/egress',
        access: 'ro',
      });
    });

    it.each([
      ['an untrusted endpoint', { endpoint: 'https://evil.example/' }, 'endpoint_not_allowed'],
      ['no endpoint at all', {}, 'endpoint_not_configured'],
    ])('refuses an isolated agent with %s, creating nothing', (_n, extra, code) => {
      const spec = makeSpec({ workspace: dirs.workspace, backend: 'bwrap', network: 'isolated', ...extra });
      const ctx = makeContext(dirs.home, { llm: code === 'endpoint_not_configured' ? { allowedHosts: [] } : llm });
      expect(() => createBwrapRunner().plan(spec, ctx)).toThrow(expect.objectContaining({ code }));
      expect(readdirSync(dirs.home)).toEqual([]);
    });

    it.each(['GENSWARMS_X', 'SWARM_TOPOLOGY', 'HOME', 'PATH', '1BAD', 'A-B'])('refuses config.env name %s', (name) => {
      const spec = makeSpec({ workspace: dirs.workspace, config: { env: { [name]: 'v' } } });
      expect(() => buildClientEnv(spec, makeContext(dirs.home), { sandbox: false, workspace: dirs.workspace, home: '/h' })).toThrow(
        expect.objectContaining({ code: 'validation_failed' }),
      );
    });
  });

  describe('mounts (docs/runners.md)', () => {
    it.each([
      ['/', () => '/'],
      ["the server user's home", () => os.homedir()],
      ['GENSWARMS_HOME itself', (d: { home: string }) => d.home],
      ['inside GENSWARMS_HOME', (d: { home: string }) => path.join(d.home, 'state')],
      ['containing GENSWARMS_HOME', (d: { root: string }) => d.root],
      ['the workspaces root', (d: { home: string }) => path.join(d.home, 'workspaces', 'swarm1')],
    ])('refuses a workspace that is %s (unsafe_workspace)', (_n, ws) => {
      const spec = makeSpec({ workspace: ws(dirs), backend: 'bwrap' });
      expect(() => planMounts(spec, makeContext(dirs.home), '/s')).toThrow(expect.objectContaining({ code: 'unsafe_workspace' }));
    });

    it('accepts the default workspace <home>/workspaces/<swarm>/<agent>', () => {
      const spec = makeSpec({ workspace: path.join(dirs.home, 'workspaces', 'swarm1', 'agent1'), backend: 'bwrap' });
      expect(() => planMounts(spec, makeContext(dirs.home), '/s')).not.toThrow();
    });

    it.each([
      ['a relative host path', () => ['rel/x', '/opt/x']],
      ['a missing host path', (d: { root: string }) => [path.join(d.root, 'nope'), '/opt/x']],
      ['a Docker socket', (d: { root: string }) => [sockDir(d.root), '/opt/x']],
      ['GENSWARMS_HOME', (d: { home: string }) => [d.home, '/opt/x']],
      ['sandbox path /', (d: { root: string }) => [d.root + '/..' === '' ? '' : ws(d), '/']],
      ['sandbox path under /proc', (d: { root: string }) => [ws(d), '/proc/x']],
      ['sandbox path under /dev', (d: { root: string }) => [ws(d), '/dev/x']],
      ['sandbox path under /run/genswarms', (d: { root: string }) => [ws(d), '/run/genswarms/launch']],
      ['sandbox path covering /workspace', (d: { root: string }) => [ws(d), '/workspace']],
      ['a relative sandbox path', (d: { root: string }) => [ws(d), 'opt/x']],
      ['a non-normalized sandbox path', (d: { root: string }) => [ws(d), '/opt/../proc']],
    ])('refuses an extra bind with %s (unsafe_bind)', (_n, bind) => {
      const spec = makeSpec({ workspace: dirs.workspace, backend: 'bwrap', config: { extra_rw_binds: [bind(dirs) as [string, string]] } });
      expect(() => planMounts(spec, makeContext(dirs.home), '/s')).toThrow(expect.objectContaining({ code: 'unsafe_bind' }));
    });

    it('orders binds: system ro, workspace rw, state rw, skills ro, launcher ro, agent ro, extras last', () => {
      const skill = path.join(dirs.root, 'sk');
      mkdirSync(skill);
      const extra = path.join(dirs.root, 'data');
      mkdirSync(extra);
      const spec = makeSpec({
        workspace: dirs.workspace,
        backend: 'bwrap',
        skills: [skill],
        config: { extra_ro_binds: [[extra, '/data']] },
      });
      const mounts = planMounts(spec, makeContext(dirs.home, { systemPaths: ['/usr', '/etc/resolv.conf'] }), '/s');
      expect(mounts.map((m) => `${m.access}:${m.sandbox}`)).toEqual([
        'ro:/usr',
        'ro:/etc/resolv.conf',
        'rw:/workspace',
        'rw:/root',
        'ro:/skills/sk',
        'ro:/run/genswarms/launch',
        'ro:/run/genswarms/agent',
        'ro:/data',
      ]);
      const none = planMounts({ ...spec, network: 'none' }, makeContext(dirs.home, { systemPaths: ['/usr', '/etc/resolv.conf'] }), '/s');
      expect(none.map((m) => m.sandbox)).not.toContain('/etc/resolv.conf');
    });
  });
});

function ws(d: { root: string }): string {
  const p = path.join(d.root, 'bindsrc');
  mkdirSync(p, { recursive: true });
  return p;
}

function sockDir(root: string): string {
  // A real unix socket named docker.sock.
  const p = path.join(root, 'docker.sock');
  const server = createNetServer();
  server.listen(p);
  afterEachClose.push(server);
  return p;
}
const afterEachClose: NetServer[] = [];
afterAll(() => afterEachClose.forEach((s) => s.close()));
void symlinkSync;
void writeFileSync;
