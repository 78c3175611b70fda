import * as lib from './index';

/** The public surface, pinned: removing or renaming an export must show up as a diff here. */
const EXPORTS: readonly string[] = [
  'BYPASS_FLAGS',
  'DEFAULT_SYSTEM_PATHS',
  'LAUNCHER_PATH',
  'PACKAGE_NAME',
  'RunnerError',
  'SANDBOX_LAUNCHER_PATH',
  'XARGS_MAX_BYTES',
  'assertArgv',
  'assertNetworkSupported',
  'buildBwrapArgs',
  'buildClientArgv',
  'buildClientEnv',
  'buildRunnerContext',
  'describeProcessTracking',
  'detectProcessTracking',
  'describeLimitSupport',
  'detectLimitSupport',
  'DEFAULT_AGENT_GID',
  'DEFAULT_AGENT_UID',
  'parseAgentId',
  'resolveAgentIdentity',
  'buildXargsArgv',
  'computeManifestBudget',
  'formatTuiDelivery',
  'createRunnerRegistry',
  'createMockRunner',
  'createBwrapRunner',
  'createLocalRunner',
  'withParentDeathSignal',
  'createDockerRunner',
  'DEFAULT_DOCKER_IMAGE',
  'ensurePrivateDir',
  'findOnPath',
  'hasBypassFlag',
  'isRunnerError',
  'killProcessTree',
  'networkLabel',
  'parseNetworkMode',
  'planMounts',
  'stateDirFor',
  'writeArgvManifest',
  'writeEnvFile',
  'createTmuxRunner',
  'createTmuxDockerRunner',
  'TmuxServer',
  'tmuxSocketPath',
  'TmuxControlClient',
  'tmuxAttachArgv',
];

describe('@genswarms/runners public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual([...EXPORTS].sort());
  });
});
