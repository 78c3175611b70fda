import * as lib from './index';

describe('@genswarms/procctl public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'EXIT_OUTPUT_GRACE_MS',
        'HandoverPayloadSchema',
        'NO_UTMP_CHILD_FD',
        'NO_UTMP_LIBRARY_PATH',
        'NO_UTMP_PRELOAD',
        'PROCCTL_ADDON_PATH',
        'ProcctlError',
        'SECRET_HANDOVER_FD_ENV',
        'SECRET_HANDOVER_MAX_BYTES',
        'SECRET_HANDOVER_TIMEOUT_MS',
        'SERVER_SECRET_ENV_NAMES',
        'SPAWNS_IN_POOL',
        'SpawnFailedError',
        'decodeHandover',
        'encodeHandover',
        'execWithSecrets',
        'execve',
        'isChildSubreaper',
        'isDumpable',
        'liveDetachedChildren',
        'noUtmpLibrary',
        'openNoUtmpLibrary',
        'procctlStatus',
        'readSecretHandover',
        'setChildSubreaper',
        'setDumpable',
        'spawnDetached',
        'splitSecrets',
      ].sort(),
    );
  });
});
