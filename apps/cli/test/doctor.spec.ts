import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { backendPosture } from '../src/doctor/backends';
import type { Check } from '../src/doctor/probes';
import { checkPty, isSocatRecentEnough } from '../src/doctor/probes';
import { checkProcessTracking } from '../src/doctor/tracking';
import { checkAgentIds } from '../src/doctor/agent-ids';
import { checkTmuxUtmp } from '../src/doctor/tmux-utmp';
import { checkAppleContainer, checkLimits } from '../src/doctor/limits';
import { describeProcessTracking, detectProcessTracking, limitLines, readHostLimits } from '@genswarms/runners';
import { cli, tempDir } from './support';

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const CHECK_NAMES = [
  'bwrap',
  'socat',
  'tmux',
  'docker',
  'docker image',
  'xargs',
  'nix-store',
  'tmux utmp',
  'pty',
  'setpriv',
  'agent ids',
  'tracking',
  'limits',
  'apple container',
  'GENSWARMS_API_TOKEN',
  'bind',
  // the host limits this host has (no RLIMIT_NPROC as root, no pids.max at the root cgroup, …)
  ...limitLines(readHostLimits()).map((l) => l.limit),
  'agents that fit',
  'cgroups',
  'client codex',
  'client claude',
  'client opencode',
];

interface DoctorJson {
  checks: Check[];
  backends: Array<{ backend: string; networks: string[]; note?: string }>;
}

async function doctorJson(env: Record<string, string>): Promise<DoctorJson> {
  const r = await cli(['doctor', '--json'], env);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as DoctorJson;
}

const statusOf = (d: DoctorJson, name: string): string | undefined => d.checks.find((c) => c.name === name)?.status;

describe('genswarms doctor', () => {
  const dir = tempDir('gs-cli-doctor-');
  afterAll(() => dir.cleanup());

  it('prints one line per check, then the isolation per backend, and exits 0', async () => {
    const r = await cli(['doctor'], { PATH: SYSTEM_PATH });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, CHECK_NAMES.length).map((l) => l.slice(9).split(':')[0])).toEqual(CHECK_NAMES);
    expect(lines).toContain('  local: open (no boundary)');
    expect(lines.filter((l) => l.startsWith('  ')).map((l) => l.trim().split(':')[0])).toEqual([
      'local',
      'bwrap',
      'docker',
      'tmux',
      'tmux+bwrap',
      'tmux+docker',
      'apple_container',
    ]);
  });

  it('says which process tracking this host uses (the server detects the same)', async () => {
    const r = await cli(['doctor'], { PATH: SYSTEM_PATH });
    const here = detectProcessTracking();
    expect(r.stdout.split('\n')).toContain(`${here.kind === 'none' ? 'missing' : 'ok     '}  tracking: ${describeProcessTracking(here)}`);
  });

  it.each<[string, Record<string, string>, { uid: number; gid: number }, string, RegExp]>([
    ['a root server with nothing set', {}, { uid: 0, gid: 0 }, 'ok', /^one uid:gid per agent from 200001-299999 \(group 200000/],
    [
      'the shared opt-in',
      { GENSWARMS_SHARED_AGENT_UID: '1' },
      { uid: 0, gid: 0 },
      'missing',
      /^every agent shares uid 65532:65532 .*weaker/,
    ],
    ['a non-root server', {}, { uid: 1000, gid: 1000 }, 'missing', /^every agent runs as the server's own uid 1000/],
    [
      'a fixed uid without the opt-in',
      { GENSWARMS_AGENT_UID: '4000' },
      { uid: 0, gid: 0 },
      'problem',
      /^the server would refuse to start: GENSWARMS_AGENT_UID: /,
    ],
  ])('says which agent identities %s gets', (_label, env, server, status, detail) => {
    expect(checkAgentIds(env, server)).toEqual({ name: 'agent ids', status, detail: expect.stringMatching(detail) });
  });

  it.each([
    [
      { kind: 'cgroup1', root: '/sys/fs/cgroup/freezer', controller: 'freezer' } as const,
      'ok',
      /^cgroup v1 freezer \(\/sys\/fs\/cgroup\/freezer\): stop kills every process/,
    ],
    [
      { kind: 'cgroup2', root: '/sys/fs/cgroup/a.service', controllers: ['pids'] } as const,
      'ok',
      /^cgroup v2 \(\/sys\/fs\/cgroup\/a\.service\)/,
    ],
    [{ kind: 'none', reason: 'cgroup v1 needs root' } as const, 'missing', /^none: best effort .*setsid.*cgroup v1 needs root$/],
  ])('reports tracking %j as %s', (tracking, status, detail) => {
    const check = checkProcessTracking(() => tracking);
    expect(check).toEqual({ name: 'tracking', status, detail: expect.stringMatching(detail) });
  });

  it.each([
    [
      { kind: 'ok', path: '/opt/gs/genswarms-no-utmp.so' } as const,
      'ok',
      /^no utmp records for agent panes \(\/opt\/gs\/genswarms-no-utmp\.so preloaded/,
    ],
    [
      { kind: 'unusable', reason: '/x.so is writable by group or others' } as const,
      'missing',
      /fork and exec per pane.*: \/x\.so is writable by group or others$/,
    ],
  ])('reports the no-utmp shim %j as %s', (shim, status, detail) => {
    expect(checkTmuxUtmp(() => shim)).toEqual({ name: 'tmux utmp', status, detail: expect.stringMatching(detail) });
  });

  it('finds the shim npm ci built (tmux utmp ok)', async () => {
    const d = await doctorJson({ PATH: SYSTEM_PATH });
    expect(statusOf(d, 'tmux utmp')).toBe('ok');
  });

  it('agrees with a trial bwrap sandbox run here', async () => {
    const trial = spawnSync('bwrap', ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', '/bin/true'], {
      env: { PATH: SYSTEM_PATH },
    });
    const d = await doctorJson({ PATH: SYSTEM_PATH });
    expect(statusOf(d, 'bwrap')).toBe(trial.error !== undefined ? 'missing' : trial.status === 0 ? 'ok' : 'problem');
    const bwrap = d.backends.find((b) => b.backend === 'bwrap');
    if (trial.status === 0 && statusOf(d, 'socat') === 'ok') expect(bwrap?.networks).toEqual(['open', 'none', 'isolated']);
  });

  it('with nothing on PATH: every tool missing, only local remains', async () => {
    const empty = join(dir.path, 'empty');
    mkdirSync(empty);
    const d = await doctorJson({ PATH: empty, DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
    for (const name of ['bwrap', 'socat', 'tmux', 'xargs', 'nix-store', 'docker'])
      expect([name, statusOf(d, name)]).toEqual([name, 'missing']);
    expect(d.backends.filter((b) => b.networks.length > 0).map((b) => b.backend)).toEqual(['local']);
  });

  it('reports a bwrap whose trial sandbox fails as a problem (user namespaces unusable)', async () => {
    const bin = join(dir.path, 'badbin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const d = await doctorJson({ PATH: `${bin}:${SYSTEM_PATH}` });
    expect(statusOf(d, 'bwrap')).toBe('problem');
    expect(d.checks.find((c) => c.name === 'bwrap')?.detail).toContain('No permissions');
    expect(d.backends.find((b) => b.backend === 'bwrap')?.networks).toEqual([]);
  });

  it('says whether the token is set, never its value', async () => {
    const token = 'doctor-secret-value';
    const r = await cli(['doctor'], { PATH: SYSTEM_PATH, GENSWARMS_API_TOKEN: token });
    expect(r.stdout).toContain('GENSWARMS_API_TOKEN: set');
    expect(r.stdout + r.stderr).not.toContain(token);
    expect((await cli(['doctor'], { PATH: SYSTEM_PATH, GENSWARMS_API_TOKEN: ' ' })).stdout).toContain('GENSWARMS_API_TOKEN: unset');
  });

  test.each<[Record<string, string>, string, string]>([
    [{}, 'ok', '127.0.0.1 (loopback)'],
    [{ GENSWARMS_HTTP_IP: '::1' }, 'ok', '::1 (loopback)'],
    [{ GENSWARMS_HTTP_IP: '0.0.0.0' }, 'problem', '0.0.0.0 (not loopback; set GENSWARMS_API_TOKEN'],
    [{ GENSWARMS_HTTP_IP: '0.0.0.0', GENSWARMS_API_TOKEN: 't' }, 'ok', '0.0.0.0 (not loopback)'],
    [{ GENSWARMS_HTTP_IP: 'localhost' }, 'problem', 'GENSWARMS_HTTP_IP is invalid'],
  ])('bind with %j → %s', async (env, status, detail) => {
    const d = await doctorJson({ PATH: SYSTEM_PATH, ...env });
    const bind = d.checks.find((c) => c.name === 'bind');
    expect(bind?.status).toBe(status);
    expect(bind?.detail).toContain(detail);
  });

  test.each([['tcp://10.0.0.1:2375'], ['ssh://user@host']])(
    'DOCKER_HOST=%s is reported as a remote engine the runner refuses',
    async (host) => {
      const d = await doctorJson({ PATH: SYSTEM_PATH, DOCKER_HOST: host });
      expect(statusOf(d, 'docker')).toBe('problem');
      expect(d.checks.find((c) => c.name === 'docker')?.detail).not.toContain('10.0.0.1');
    },
  );
});

describe('backendPosture (docs/security.md matrix, limited to what this host can do)', () => {
  const all = (status: Check['status'], except: Record<string, Check['status']> = {}): Check[] =>
    ['bwrap', 'socat', 'tmux', 'docker', 'xargs'].map((name) => ({ name, status: except[name] ?? status, detail: '' }));
  const nets = (checks: Check[]): Record<string, string> =>
    Object.fromEntries(backendPosture(checks).map((p) => [p.backend, p.networks.join(' ')]));

  it('everything usable', () => {
    expect(nets(all('ok'))).toEqual({
      local: 'open',
      bwrap: 'open none isolated',
      docker: 'open none isolated named',
      tmux: 'open',
      'tmux+bwrap': 'open none',
      'tmux+docker': 'open none named',
      apple_container: '',
    });
  });
  it('no socat: no isolated anywhere', () => {
    expect(nets(all('ok', { socat: 'problem' }))).toMatchObject({ bwrap: 'open none', docker: 'open none named' });
  });
  it('no GNU xargs: no tmux backends', () => {
    expect(nets(all('ok', { xargs: 'missing' }))).toMatchObject({ tmux: '', 'tmux+bwrap': '', 'tmux+docker': '' });
  });
  test.each<[string, boolean]>([
    ['1.7.4', true],
    ['1.7.4.4', true],
    ['1.8.0.0', true],
    ['2.0.0', true],
    ['1.7.3.4', false],
    ['1.6.9', false],
    ['0.9', false],
  ])('socat %s recent enough: %s', (v, ok) => {
    expect(isSocatRecentEnough(v)).toBe(ok);
  });
});

describe('doctor pty check', () => {
  const files =
    (max: string, nr: string) =>
    (f: string): string => {
      if (f.endsWith('/max')) return max;
      if (f.endsWith('/nr')) return nr;
      throw new Error('unexpected file');
    };
  test.each([
    ['4096\n', '10\n', 'ok'],
    ['4096', '4090', 'problem'],
    ['abc', '1', 'problem'],
  ])('max %j, in use %j → %s', (max, nr, status) => {
    expect(checkPty(files(max, nr)).status).toBe(status);
  });
  it('reports missing when the kernel files cannot be read', () => {
    expect(
      checkPty(() => {
        throw new Error('ENOENT');
      }).status,
    ).toBe('missing');
  });
  it("reads this host's real limit", () => {
    const check = checkPty();
    expect(check.status).not.toBe('missing');
    expect(check.detail).toMatch(/^\d+ of \d+ in use/);
  });
});

describe('the docker image line (docker out of the box)', () => {
  const dir = tempDir('gs-cli-doctor-img-');
  let engine: Server;
  let imagePresent = false;
  const socketPath = (): string => join(dir.path, 'engine.sock');
  beforeAll(async () => {
    // A local engine socket that answers the two calls doctor makes: _ping and the image inspect.
    engine = createServer((req, res) => {
      if (req.url === '/_ping') res.writeHead(200).end('OK');
      else if (req.url === '/images/genswarms%2Fagent%3Alatest/json') res.writeHead(imagePresent ? 200 : 404).end('{}');
      else res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => engine.listen(socketPath(), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => engine.close(resolve));
    dir.cleanup();
  });
  const imageLine = async (env: Record<string, string>): Promise<string | undefined> =>
    (await cli(['doctor'], { PATH: SYSTEM_PATH, ...env })).stdout.split('\n').find((l) => l.includes(' docker image: '));

  it('says the default image is missing and names the command that builds it', async () => {
    imagePresent = false;
    expect(await imageLine({ DOCKER_HOST: `unix://${socketPath()}` })).toBe(
      'missing  docker image: genswarms/agent:latest is not in the local engine; docker agents without an image are refused (image_missing); build it with: genswarms image build',
    );
  });

  it('says the default image is present', async () => {
    imagePresent = true;
    expect(await imageLine({ DOCKER_HOST: `unix://${socketPath()}` })).toBe(
      'ok       docker image: genswarms/agent:latest is present (default image of docker agents)',
    );
  });

  it('does not check without an engine, and says why', async () => {
    expect(await imageLine({ DOCKER_HOST: `unix://${join(dir.path, 'absent.sock')}` })).toBe(
      `missing  docker image: not checked: no engine on ${join(dir.path, 'absent.sock')} (ENOENT)`,
    );
  });
});

describe('limits and apple_container lines', () => {
  it('names which limits each backend enforces here; a cgroup root without controllers enforces none for bwrap', () => {
    const none = checkLimits(() => ({ version: undefined, bases: {}, reasons: ['no cgroup2 mount; cgroup v1 needs root'] }));
    expect(none.status).toBe('missing');
    expect(none.detail).toContain(
      'bwrap, tmux+bwrap: no cgroup: enforced none; refused at plan (limits_unsupported): memory_limit, pids_limit, cpu_limit',
    );
    expect(none.detail).toContain('local, tmux, ssh: none (refused at plan)');
    const v1 = checkLimits(() => ({ version: 1, bases: { memory: '/m', pids: '/p', cpu: '/c' }, reasons: [] }));
    expect(v1).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('bwrap, tmux+bwrap: cgroup v1: enforced memory_limit, pids_limit, cpu_limit |'),
    });
  });

  it('apple_container is unavailable off macOS, and names the missing CLI on macOS', () => {
    expect(checkAppleContainer({ PATH: SYSTEM_PATH }, 'linux')).toMatchObject({
      status: 'missing',
      detail: expect.stringContaining('macOS only'),
    });
    expect(checkAppleContainer({ PATH: '/nonexistent' }, 'darwin')).toMatchObject({ status: 'missing' });
    expect(backendPosture([{ name: 'apple container', status: 'ok', detail: '' }]).find((p) => p.backend === 'apple_container')).toEqual({
      backend: 'apple_container',
      networks: ['open', 'named'],
      note: 'not run on macOS yet',
    });
  });
});
