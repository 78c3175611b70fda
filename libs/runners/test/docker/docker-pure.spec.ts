import type { LaunchPlan, RunnerContext } from '../../src/index';
import { RunnerError } from '../../src/index';
import { buildContainerSpec, networkModeFor, parseCpuLimit, parseMemoryLimit } from '../../src/lib/docker/container-spec';
import { localEngineSocket } from '../../src/lib/docker/engine-host';
import { dockerNetworkSecurityOpt } from '../../src/lib/docker/docker-seccomp';
import { LAUNCHER_PATH } from '../../src/lib/launcher/launcher';
import { createDockerRunner } from '../../src/lib/docker/docker-runner';
import { makeCtx, makeDirs, makeDockerSpec } from './docker-support';
import type { TestDirs } from './docker-support';
import { codeOf } from '@genswarms/test-kit';

describe('localEngineSocket', () => {
  test.each([
    [undefined, '/var/run/docker.sock'],
    ['', '/var/run/docker.sock'],
    ['   ', '/var/run/docker.sock'],
    ['unix:///var/run/docker.sock', '/var/run/docker.sock'],
    ['unix:///tmp/other.sock', '/tmp/other.sock'],
  ])('accepts the local engine %j', (host, socket) => {
    expect(localEngineSocket(host)).toBe(socket);
  });

  test.each([
    'tcp://10.0.0.1:2375',
    'tcp://127.0.0.1:2376',
    'ssh://user@host',
    'npipe:////./pipe/docker',
    'unix://relative.sock',
    'http://x',
    'unix:///a\0b',
    '/var/run/docker.sock',
  ])('refuses the remote or malformed engine %j', (host) => {
    expect(codeOf(RunnerError, () => localEngineSocket(host))).toBe('remote_engine_unsupported');
  });
});

describe('limits', () => {
  test.each([
    ['512m', 512 * 1024 ** 2],
    ['2g', 2 * 1024 ** 3],
    ['65536k', 64 * 1024 ** 2],
  ])('memory_limit %s is %d bytes', (raw, bytes) => {
    expect(parseMemoryLimit(raw, 'a')).toBe(bytes);
  });
  test.each(['512', '1m', '1.5g', '-1m', '1t', '', '99999999999999g', '__proto__'])('refuses memory_limit %j', (raw) => {
    expect(codeOf(RunnerError, () => parseMemoryLimit(raw, 'a'))).toBe('validation_failed');
  });
  test.each([
    [0.5, 500_000_000],
    [2, 2_000_000_000],
  ])('cpu_limit %d is %d NanoCpus', (cpu, nano) => {
    expect(parseCpuLimit(cpu, 'a')).toBe(nano);
  });
  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses cpu_limit %p', (cpu) => {
    expect(codeOf(RunnerError, () => parseCpuLimit(cpu, 'a'))).toBe('validation_failed');
  });
  test.each([
    ['open', 'bridge'],
    ['none', 'none'],
    ['isolated', 'none'],
  ] as const)('network %s → NetworkMode %s', (net, mode) => {
    expect(networkModeFor(net)).toBe(mode);
  });
  it('uses a named network as is', () => {
    expect(networkModeFor({ named: 'web' })).toBe('web');
  });
});

describe('docker plan and container spec', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  beforeEach(() => {
    dirs = makeDirs();
    ctx = makeCtx(dirs.home, {
      llm: { defaultEndpoint: 'http://llm.example:8080/v1', serverApiKey: 'sk-server-SECRET', allowedHosts: ['llm.example'] },
    });
  });
  afterEach(() => dirs.cleanup());

  it('builds exactly the docs/runners.md container for an isolated agent', () => {
    const spec = makeDockerSpec({
      workspace: dirs.workspace,
      network: 'isolated',
      client: { command: ['/usr/bin/node', '-e', 'x'] },
      config: { memory_limit: '256m', cpu_limit: 1.5, env: { MY_TOKEN: 'tok-SECRET' } },
    });
    const plan: LaunchPlan = createDockerRunner().plan(spec, ctx);
    const create = buildContainerSpec(plan, ctx, 'img:1');
    expect(create).toEqual({
      name: 'gs-dswarm-a1',
      Image: 'img:1',
      Entrypoint: ['/run/genswarms/launch', '/root/.genswarms/env'],
      Cmd: ['/usr/bin/node', '-e', 'x'],
      Env: [],
      User: `${ctx.agent?.uid}:${ctx.agent?.gid}`, // the agent identity (never 0), not the server's uid
      WorkingDir: '/workspace',
      Labels: { 'genswarms.swarm': 'dswarm', 'genswarms.agent': 'a1', 'genswarms.session': plan.sessionId },
      Tty: false,
      OpenStdin: false,
      StdinOnce: false,
      AttachStdin: false,
      AttachStdout: false,
      AttachStderr: false,
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        // isolated: the engine's default seccomp profile plus the network denies (docs/runners.md "Seccomp")
        SecurityOpt: ['no-new-privileges:true', dockerNetworkSecurityOpt('a1').opt],
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': 'rw,nosuid,size=256m' },
        Init: true,
        Privileged: false,
        RestartPolicy: { Name: 'no' },
        PidsLimit: 512,
        Memory: 256 * 1024 ** 2,
        NanoCpus: 1_500_000_000,
        Mounts: [
          { Type: 'bind', Source: dirs.workspace, Target: '/workspace', ReadOnly: false },
          { Type: 'bind', Source: `${dirs.home}/state/dswarm/a1`, Target: '/root', ReadOnly: false },
          { Type: 'bind', Source: LAUNCHER_PATH, Target: '/run/genswarms/launch', ReadOnly: true },
          { Type: 'bind', Source: `${dirs.home}/egress/dswarm/a1`, Target: '/run/genswarms/egress', ReadOnly: true },
        ],
      },
    });
    expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBe('http://127.0.0.1:17080/v1');
    expect(plan.env['GENSWARMS_LLM_UPSTREAM_HOST']).toBe('llm.example:8080');
    expect(JSON.stringify(create)).not.toMatch(/SECRET/);
  });

  it('binds the genswarms-agent dist directory read-only', () => {
    const plan = createDockerRunner().plan(makeDockerSpec({ workspace: dirs.workspace, client: 'genswarms-agent', network: 'open' }), ctx);
    expect(plan.clientArgv).toEqual(['/usr/bin/node', '/run/genswarms/agent/main.js']);
    expect(plan.mounts).toContainEqual({ host: `${dirs.root}/agent`, sandbox: '/run/genswarms/agent', access: 'ro' });
    expect(buildContainerSpec(plan, ctx, 'i').HostConfig.NetworkMode).toBe('bridge');
  });

  test.each([
    ['an untrusted isolated endpoint', { network: 'isolated', endpoint: 'https://evil.example/v1' }, {}, 'endpoint_not_allowed'],
    ['an isolated agent without endpoint', { network: 'isolated' }, { llm: { allowedHosts: [] } }, 'endpoint_not_configured'],
    ['a remote engine', { network: 'none' }, { dockerHost: 'tcp://10.0.0.1:2375' }, 'remote_engine_unsupported'],
    ['a bad memory limit', { network: 'none', config: { memory_limit: '12' } }, {}, 'validation_failed'],
    ['a bad pids limit', { network: 'none', config: { pids_limit: 3 } }, {}, 'validation_failed'],
    ['a NUL argv word', { network: 'none', client: { command: ['/bin/sh', 'a\0b'] } }, {}, 'invalid_argv'],
    ['an empty argv word', { network: 'none', client: { command: ['/bin/sh', ''] } }, {}, 'invalid_argv'],
    ['a bypass flag without opt-in', { network: 'none', client: { command: ['/x', '--yolo'] } }, {}, 'bypass_requires_opt_in'],
  ] as const)('refuses %s at plan time', (_name, specOverrides, ctxOverrides, code) => {
    const c = { ...ctx, ...ctxOverrides } as RunnerContext;
    const spec = makeDockerSpec({ workspace: dirs.workspace, ...(specOverrides as object) });
    expect(codeOf(RunnerError, () => createDockerRunner().plan(spec, c))).toBe(code);
  });

  it('reports the untrusted endpoint by host only', () => {
    const spec = makeDockerSpec({ workspace: dirs.workspace, network: 'isolated', endpoint: 'https://evil.example/v1?key=sk-x' });
    try {
      createDockerRunner().plan(spec, ctx);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(RunnerError);
      expect((err as RunnerError).details).toEqual({ agent: 'a1', endpoint: 'evil.example' });
    }
  });

  it('refuses a socat-less host for isolated agents', () => {
    const c: RunnerContext = { ...ctx, binaries: { ...ctx.binaries, socat: undefined } };
    expect(
      codeOf(RunnerError, () => createDockerRunner().plan(makeDockerSpec({ workspace: dirs.workspace, network: 'isolated' }), c)),
    ).toBe('egress_unavailable');
  });
});
