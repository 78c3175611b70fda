import * as lib from './index';

describe('@genswarms/security public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'CONFIG_MAX_BYTES',
        'DEFAULT_BIND_ADDRESS',
        'DEFAULT_PORT',
        'REDACTED',
        'SecurityError',
        'TOKEN_REQUIRED_BODY',
        'UNAUTHORIZED_BODY',
        'authorize',
        'buildEndpointPolicy',
        'checkConfinedPath',
        'corsHeadersFor',
        'createAuthorizer',
        'decideApiKey',
        'effectiveEndpoint',
        'hostOf',
        'isEndpointTrusted',
        'isHostHeaderAllowed',
        'isInsideBase',
        'isLoopback',
        'isOriginAllowed',
        'isSecretKey',
        'normalizeToken',
        'parseBearer',
        'parseBindAddress',
        'parseCorsOrigins',
        'parsePort',
        'preflightHeaders',
        'readConfinedConfig',
        'redactSecrets',
        'redactUrl',
        'resolveConfigDir',
        'compileRouteScope',
        'tokensMatch',
      ].sort(),
    );
  });
});
