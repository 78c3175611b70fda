/**
 * docker: the isolation block of a running container is read from its init process in /proc plus the engine's
 * inspect (NetworkMode, CapDrop, SecurityOpt, ReadonlyRootfs), per network mode; an engine setting that
 * contradicts the plan is a difference. Needs a Docker engine (CI runs dockerd): skipped loudly otherwise.
 */
import type { AgentLaunchSpec, RunnerHandle } from '../../src/index';
import { createDockerRunner } from '../../src/index';
import {
  dockerDifferences,
  dockerIsolationCheckFrom,
  dockerIsolationCheckOf,
  summarizeSecurityOpt,
} from '../../src/lib/isolation/docker-isolation';
import { dockerNetworkSecurityOpt } from '../../src/lib/docker/docker-seccomp';
import { describeIfEngine, makeCtx, makeDirs, makeDockerSpec, TEST_IMAGE, type TestDirs } from '../docker/docker-support';
import { createTmuxDockerRunner } from '../../src/lib/docker/tmux-docker';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { makeTestEnv, tmuxSpec, type TmuxTestEnv } from '../tmux/tmux-support';

const HOLD = { command: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'] };

describeIfEngine('docker isolation from the live container', () => {
  let dirs: TestDirs;
  let handle: RunnerHandle | undefined;
  beforeEach(() => {
    dirs = makeDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 0 });
    handle = undefined;
    dirs.cleanup();
  });

  test.each([
    ['none', 'none' as AgentLaunchSpec['network'], 'loopback', 'none'],
    ['open', 'open' as AgentLaunchSpec['network'], 'own', 'bridge'],
  ])('network %s: own namespaces, %s network, the engine hardening, the pids limit in force', async (_n, network, reach, mode) => {
    const ctx = makeCtx(dirs.home);
    const runner = createDockerRunner();
    const plan = runner.plan(makeDockerSpec({ workspace: dirs.workspace, client: HOLD, network, config: { memory_limit: '128m' } }), ctx);
    handle = await runner.start(plan, ctx);
    const report = await handle.isolation?.();
    expect(report).toMatchObject({
      namespaces: expect.arrayContaining(['ipc', 'mnt', 'net', 'pid', 'uts']),
      network: reach,
      no_new_privs: true,
      limits: { memory_bytes: 128 * 1024 * 1024, pids: 512 },
      mounts: { workspace: 'rw', state_dir: 'rw', host_root_visible: false },
      docker: { network_mode: mode, cap_drop: ['ALL'], readonly_rootfs: true },
    });
    expect(report?.differences).toEqual([]);
    // none/isolated: the engine's default profile plus the network denies, checked by its digest
    const profile = `seccomp=sha256:${dockerNetworkSecurityOpt('a1').sha256}`;
    if (network === 'none')
      expect(report).toMatchObject({ seccomp: 'filter', docker: { security_opt: ['no-new-privileges:true', profile] } });
    else expect(report?.docker?.security_opt).toEqual(['no-new-privileges:true']);
  });

  it('re-attached by a new runner (a server restart): the stored check is read again', async () => {
    const ctx = makeCtx(dirs.home);
    const plan = createDockerRunner().plan(makeDockerSpec({ workspace: dirs.workspace, client: HOLD, network: 'none' }), ctx);
    handle = await createDockerRunner().start(plan, ctx);
    const adopted = await createDockerRunner().reattach?.(JSON.parse(JSON.stringify(handle.describe())), ctx);
    expect(await adopted?.isolation?.()).toMatchObject({ network: 'loopback', docker: { network_mode: 'none' }, differences: [] });
  });
});

describeIfEngine('tmux runner docker: the container behind the pane', () => {
  let env: TmuxTestEnv;
  let handle: RunnerHandle | undefined;
  const runner = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });
  beforeAll(async () => {
    env = await makeTestEnv('tdock-iso');
  });
  afterAll(async () => {
    await handle?.stop({ graceMs: 200 });
    await runner.close?.('shutdown');
    await env.cleanup();
  });

  it('is read from the container started by the pane, and again after a re-attach', async () => {
    const spec = {
      ...tmuxSpec(env, 'tiso', ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'], { runner: 'docker' as const }),
      network: 'none' as const,
    };
    handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
    const expected = { network: 'loopback', no_new_privs: true, docker: { network_mode: 'none', readonly_rootfs: true }, differences: [] };
    expect(await handle.isolation?.()).toMatchObject(expected);
    const again = createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) });
    const adopted = await again.reattach?.(JSON.parse(JSON.stringify(handle.describe())), env.ctx);
    expect(await adopted?.isolation?.()).toMatchObject(expected);
    await again.close?.('detach');
  });
});

describe('docker engine facts against the plan', () => {
  it('names each engine setting that contradicts the plan', () => {
    expect(
      dockerDifferences('none', { networkMode: 'bridge', capDrop: [], securityOpt: [], readonlyRootfs: false }).map((d) => d.field),
    ).toEqual(['docker.network_mode', 'docker.cap_drop', 'docker.security_opt', 'docker.readonly_rootfs']);
    expect(
      dockerDifferences('none', { networkMode: 'none', capDrop: ['ALL'], securityOpt: ['no-new-privileges:true'], readonlyRootfs: true }),
    ).toEqual([]);
  });

  it('none/isolated: a container without the planned seccomp profile is a difference', () => {
    const { opt, sha256 } = dockerNetworkSecurityOpt('a1');
    const host = (securityOpt: string[]) => ({ networkMode: 'none', capDrop: ['ALL'], securityOpt, readonlyRootfs: true });
    expect(dockerDifferences('none', host(['no-new-privileges:true', opt]), sha256)).toEqual([]);
    expect(dockerDifferences('none', host(['no-new-privileges:true']), sha256)).toEqual([
      { field: 'docker.seccomp', expected: `sha256:${sha256}`, actual: 'the engine default' },
    ]);
    expect(dockerDifferences('none', host(['no-new-privileges:true', 'seccomp={}']), sha256).map((d) => d.field)).toEqual([
      'docker.seccomp',
    ]);
    expect(summarizeSecurityOpt(['no-new-privileges:true', opt])).toEqual(['no-new-privileges:true', `seccomp=sha256:${sha256}`]);
  });

  it('a stored check from before the profile digest existed is still read back (and one with a non-string digest is not)', () => {
    const dirs = makeDirs();
    const plan = createDockerRunner().plan(
      makeDockerSpec({ workspace: dirs.workspace, client: HOLD, network: 'none' }),
      makeCtx(dirs.home),
    );
    dirs.cleanup();
    const check = JSON.parse(JSON.stringify(dockerIsolationCheckOf(plan))) as Record<string, unknown>;
    expect(check['seccompProfile']).toMatch(/^[0-9a-f]{64}$/);
    const { seccompProfile: _dropped, ...older } = check;
    expect(dockerIsolationCheckFrom(older)).toEqual(older);
    expect(dockerIsolationCheckFrom({ ...check, seccompProfile: 1 })).toBeUndefined();
  });
});
