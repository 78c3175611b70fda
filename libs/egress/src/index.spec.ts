import * as lib from './index';

describe('@genswarms/egress public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual([
      'DEFAULT_RELAY_TIMEOUTS',
      'EGRESS_SOCKET_NAME',
      'EgressError',
      'FORWARDER_READY_TIMEOUT_MS',
      'PACKAGE_NAME',
      'RELAY_CONNECTIONS_MAX',
      'REQUEST_HEAD_MAX_BYTES',
      'RESPONSE_HEAD_MAX_BYTES',
      'SANDBOX_EGRESS_DIR',
      'SANDBOX_EGRESS_PORT',
      'SOCAT_MIN_VERSION',
      'SOCAT_PROBE_TIMEOUT_MS',
      'UNIX_SOCKET_PATH_MAX_BYTES',
      'UPSTREAM_SOCKET_SUFFIX',
      'USAGE_TOKENS_MAX',
      'buildHostSocatArgs',
      'isSafeTargetHost',
      'isVersionAtLeast',
      'parseSocatVersion',
      'planEgress',
      'probeSocat',
      'sandboxEndpoint',
      'startForwarder',
    ]);
  });
});
