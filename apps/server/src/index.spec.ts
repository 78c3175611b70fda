import * as lib from './index';

describe('@genswarms/server public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'AUTH_DENIED_WINDOW_MS',
        'BODY_LIMIT_BYTES',
        'DEFAULT_MAX_AGENTS_PER_SWARM',
        'DEFAULT_ROUTES',
        'OPERATIONS',
        'EXIT_INVALID_CONFIG',
        'IR_GATE_VALIDATOR',
        'SERVER_VERSION',
        'RECENT_LIMIT',
        'buildRunners',
        'createApp',
        'createEngineEventSink',
        'createSwarmHandlers',
        'defaultAgentEntry',
        'openEngine',
        'createAuthDeniedReporter',
        'createMemoryEventSink',
        'createServerLogger',
        'formatUrl',
        'loadServerConfig',
        'runMain',
        'sendError',
        'startServer',
      ].sort(),
    );
  });
});
