import * as path from 'node:path';
import type { AgentLaunchSpec, LaunchPlan, RunnerContext } from '../../src/index';
import { buildContainerSpec } from '../../src/lib/docker/container-spec';
import { createTmuxDockerRunner, dockerPaneLaunch } from '../../src/lib/docker/tmux-docker';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { LAUNCHER_PATH, SANDBOX_LAUNCHER_PATH } from '../../src/lib/launcher/launcher';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { missingBinaries } from '../tmux/tmux-support';
import { makeCtx, makeDirs, TEST_IMAGE, type TestDirs } from './docker-support';

const needs = missingBinaries(['tmux', 'xargs']);
if (needs.length > 0) console.warn(`SKIPPING tmux+docker plan specs: missing ${needs.join(', ')} (CI installs them)`);
const describeWithTmux = needs.length === 0 ? describe : describe.skip;

describeWithTmux('tmux runner docker: plan (pure, no engine needed)', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  const runner = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });

  beforeEach(() => {
    dirs = makeDirs('gs-tdplan-');
    ctx = makeCtx(dirs.home, {
      llm: { defaultEndpoint: 'https://llm.example/v1', serverApiKey: 'sk-server', allowedHosts: ['llm.example'] },
    });
  });
  afterEach(() => dirs.cleanup());

  function spec(over: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec {
    return {
      swarm: 'sw',
      agent: 'coder',
      backend: 'tmux',
      runner: 'docker',
      client: { command: ['/usr/bin/node', '/opt/tui.js'] },
      network: 'open',
      workspace: dirs.workspace,
      skills: [],
      unsafeBypass: false,
      topologyTargets: [],
      config: {},
      backendOpts: {},
      ...over,
    };
  }

  function planCode(s: AgentLaunchSpec, c: RunnerContext = ctx): string | undefined {
    try {
      runner.plan(s, c);
      return undefined;
    } catch (err) {
      return err instanceof RunnerError ? err.code : `not a RunnerError: ${String(err)}`;
    }
  }

  it.each([['open' as const], ['none' as const], [{ named: 'gs-lab_net.1' }]])('accepts network %j', (network) => {
    expect(planCode(spec({ network }))).toBeUndefined();
  });

  it('refuses network isolated at plan time (unsupported_network, agent and network named)', () => {
    expect(() => runner.plan(spec({ network: 'isolated' }), ctx)).toThrow(
      expect.objectContaining({ code: 'unsupported_network', details: { agent: 'coder', network: 'isolated' } }) as unknown as RunnerError,
    );
  });

  it.each([['tcp://10.0.0.1:2375'], ['ssh://user@host'], ['npipe:////./pipe/docker_engine'], ['unix://relative.sock']])(
    'refuses a remote or odd DOCKER_HOST %s (remote_engine_unsupported)',
    (dockerHost) => {
      expect(planCode(spec(), makeCtx(dirs.home, { dockerHost }))).toBe('remote_engine_unsupported');
    },
  );

  it('refuses when the docker CLI is not installed (binary_missing)', () => {
    const { docker: _docker, ...binaries } = ctx.binaries;
    expect(planCode(spec(), { ...ctx, binaries })).toBe('binary_missing');
  });

  it.each([
    ['an invalid memory_limit', { memory_limit: '12x' }, 'validation_failed'],
    ['a tiny pids_limit', { pids_limit: 3 }, 'validation_failed'],
    ['a Docker socket bind', { extra_rw_binds: [['/var/run/docker.sock', '/var/run/docker.sock']] as const }, 'unsafe_bind'],
    ['a bind under /run/genswarms', { extra_ro_binds: [['/usr', '/run/genswarms/x']] as const }, 'unsafe_bind'],
  ])('refuses %s at plan time', (_label, config, code) => {
    expect(planCode(spec({ config }))).toBe(code);
  });

  it('refuses a workspace containing GENSWARMS_HOME (unsafe_workspace)', () => {
    expect(planCode(spec({ workspace: dirs.root }))).toBe('unsafe_workspace');
  });

  it('plans the sandbox view: /workspace and /root rw, the launcher ro, no host system paths; TUI env', () => {
    const plan = runner.plan(spec(), ctx);
    expect(plan.mounts).toEqual([
      { host: dirs.workspace, sandbox: '/workspace', access: 'rw', origin: { written: dirs.workspace, kind: 'workspace' } },
      { host: path.join(dirs.home, 'state', 'sw', 'coder'), sandbox: '/root', access: 'rw' },
      { host: LAUNCHER_PATH, sandbox: SANDBOX_LAUNCHER_PATH, access: 'ro' },
    ]);
    expect(plan.clientArgv).toEqual(['/usr/bin/node', '/opt/tui.js']);
    expect(plan.env).toMatchObject({ GENSWARMS_WORKSPACE: '/workspace', HOME: '/root', TERM: 'xterm-256color', LANG: 'C.UTF-8' });
  });

  it('replays exactly `<docker> start -ai gs-<swarm>-<agent>` in the pane', () => {
    const plan = runner.plan(spec(), ctx);
    expect(dockerPaneLaunch(plan, ctx)).toEqual({ entry: ctx.binaries.docker, words: ['start', '-ai', 'gs-sw-coder'] });
    expect(path.isAbsolute(ctx.binaries.docker ?? '')).toBe(true);
  });

  it('names a non-default local engine socket with --host (the pane has no DOCKER_HOST)', () => {
    const local = makeCtx(dirs.home, { dockerHost: 'unix:///srv/docker/engine.sock' });
    const plan = runner.plan(spec(), local);
    expect(dockerPaneLaunch(plan, local).words).toEqual(['--host', 'unix:///srv/docker/engine.sock', 'start', '-ai', 'gs-sw-coder']);
  });

  it('builds a TTY container body with stdin open, and the same hardening and empty Env as headless', () => {
    const plan: LaunchPlan = runner.plan(spec({ config: { env: { TOKEN_X: 'secret-value' }, memory_limit: '256m', cpu_limit: 0.5 } }), ctx);
    const body = buildContainerSpec(plan, ctx, TEST_IMAGE, { tty: true });
    expect(body).toMatchObject({
      name: 'gs-sw-coder',
      Tty: true,
      OpenStdin: true,
      StdinOnce: false,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Env: [],
      Entrypoint: ['/run/genswarms/launch', '/root/.genswarms/env'],
      Cmd: ['/usr/bin/node', '/opt/tui.js'],
      WorkingDir: '/workspace',
      User: `${ctx.agent?.uid}:${ctx.agent?.gid}`, // the agent identity (never 0), not the server's uid
      HostConfig: {
        NetworkMode: 'bridge',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        ReadonlyRootfs: true,
        Init: true,
        Privileged: false,
        RestartPolicy: { Name: 'no' },
        PidsLimit: 512,
        Memory: 256 * 1024 ** 2,
        NanoCpus: 5e8,
      },
    });
    expect(JSON.stringify(body)).not.toContain('secret-value');
    expect(Object.keys(body.Labels).sort()).toEqual(['genswarms.agent', 'genswarms.session', 'genswarms.swarm']);
  });

  it('maps none to NetworkMode none and a named network to itself', () => {
    const none = buildContainerSpec(runner.plan(spec({ network: 'none' }), ctx), ctx, TEST_IMAGE, { tty: true });
    const named = buildContainerSpec(runner.plan(spec({ network: { named: 'labnet' } }), ctx), ctx, TEST_IMAGE, { tty: true });
    expect([none.HostConfig.NetworkMode, named.HostConfig.NetworkMode]).toEqual(['none', 'labnet']);
  });
});
