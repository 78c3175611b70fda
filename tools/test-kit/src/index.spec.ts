import * as kit from './index';

describe('@genswarms/test-kit public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(kit).sort()).toEqual(
      [
        'SHOWN_VALUE_MAX_CHARS',
        'TEMP_DIR_MODE',
        'TestKitError',
        'WAIT_FOR_INTERVAL_MS',
        'WAIT_FOR_TIMEOUT_MS',
        'closeServer',
        'codeOf',
        'listen',
        'refusal',
        'tempDir',
        'waitFor',
      ].sort(),
    );
  });
});
