import * as lib from './index';

describe('@genswarms/cli public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'CLI_VERSION',
        'COMMANDS',
        'CliError',
        'DEFAULT_BASE_URL',
        'EXIT',
        'REQUEST_TIMEOUT_MS',
        'createApiClient',
        'parseBaseUrl',
        'runCli',
      ].sort(),
    );
  });
});
