/** host_nix bwrap argv (pure): the plan's binds in order, then `--remount-ro /` so the sandbox root holding /bin is read-only. */
import type { LaunchPlan, RunnerContext } from '../../src/index';
import { buildBwrapArgs } from '../../src/index';

const ctx = { home: '/gs', serverUid: 0, serverGid: 0, binaries: { node: '/usr/bin/node' }, agentEntry: '/a/main.js' } as RunnerContext;
const STORE = '/nix/store/aaaa-client';

function plan(clientSource: 'runtime' | 'host_nix'): LaunchPlan {
  return {
    spec: {
      swarm: 's',
      agent: 'a',
      backend: 'bwrap',
      client: { command: [`${STORE}/bin/client`] },
      network: 'none',
      workspace: '/w',
      skills: [],
      unsafeBypass: false,
      topologyTargets: [],
      config: { client_source: clientSource, nix_package: STORE },
      backendOpts: {},
    },
    sessionId: 'x',
    stateDir: '/gs/state/s/a',
    clientArgv: [`${STORE}/bin/client`],
    env: {},
    mounts: [
      { host: '/w', sandbox: '/workspace', access: 'rw' },
      { host: STORE, sandbox: STORE, access: 'ro' },
      { host: `${STORE}/bin/busybox`, sandbox: '/bin/sh', access: 'ro' },
    ],
    notices: [],
  };
}

const BINDS = ['--bind', '/w', '/workspace', '--ro-bind', STORE, STORE, '--ro-bind', `${STORE}/bin/busybox`, '/bin/sh'];
const TAIL = ['--', '/run/genswarms/launch', '/root/.genswarms/env', `${STORE}/bin/client`];

it('remounts the sandbox root read-only after every bind for host_nix', () => {
  const args = buildBwrapArgs(plan('host_nix'), ctx, { headless: true });
  const start = args.indexOf('--bind');
  expect(args.slice(start)).toEqual([...BINDS, '--remount-ro', '/', ...TAIL]);
});

it('leaves the runtime source argv unchanged (no root remount)', () => {
  const args = buildBwrapArgs(plan('runtime'), ctx, { headless: true });
  expect(args.slice(args.indexOf('--bind'))).toEqual([...BINDS, ...TAIL]);
});
