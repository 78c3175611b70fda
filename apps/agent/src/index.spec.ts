import * as lib from './index';

describe('@genswarms/agent public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'INBOX_POLL_MS',
        'NO_ENDPOINT_ERROR',
        'PACKAGE_NAME',
        'chatCompletionsUrl',
        'extractAtMessages',
        'loadAgentConfig',
        'parseTopology',
        'runAgent',
      ].sort(),
    );
  });
});
