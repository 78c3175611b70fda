import * as lib from './index';

describe('@genswarms/tools public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(
      [
        'PACKAGE_NAME',
        // fs-snapshot
        'snapshotTree',
        // mock-llm
        'MOCK_LLM_BIN',
        'MOCK_LLM_BODY_MAX_BYTES',
        'MOCK_LLM_COUNT_PATH',
        'REDACTED_HEADERS',
        'redactedHeaderValue',
        'parseTurnTask',
        'buildReceiptCommand',
        'mockReplyText',
        'MOCK_LLM_MODEL',
        'MOCK_LLM_REQUESTS_PATH',
        'MockScriptEntrySchema',
        'MockScriptSchema',
        'chooseReply',
        'parseMockScript',
        'startMockLlm',
        'startUsageLlm',
        'USAGE_LLM_BODY_MAX_BYTES',
        'usageJson',
        'usageSse',
        // echo-argv
        'ECHO_ARGV_BIN',
        'EchoArgvOutputSchema',
        'parseEchoArgvOutput',
        // build-once
        'REPO_ROOT',
        'buildOnce',
        // free-port
        'freePort',
        'onFreshPort',
        // sshd
        'SSHD_BIN',
        'SSH_KEYGEN_BIN',
        'createTestNetns',
        'startTestSshd',
        'testNetnsUnavailable',
        'testSshdUnavailable',
        // fuzz
        'FUZZ_FAST_COUNT',
        'FUZZ_FAST_HANG_MS',
        'FUZZ_REGRESSIONS_DIR',
        'decodeFuzzValue',
        'encodeFuzzValue',
        'fuzzSettings',
        'loadFuzzRegressions',
        'replayFuzzRegressions',
        'runFuzzTarget',
        'saveFuzzRegression',
        'mutatedConfig',
        'mutateConfig',
        'hostileValue',
        'nested',
        'HOSTILE_KEYS',
        'HOSTILE_NUMBERS',
        'HOSTILE_STRINGS',
        'docsConfigs',
        'documentedErrorCodes',
        'expectDocumentedCode',
        'expectPrototypeClean',
      ].sort(),
    );
  });
});
