/** @genswarms/tools: Dev and test tools: mock LLM, fake TUI, echo-argv, bench, lint rules. */
export const PACKAGE_NAME = '@genswarms/tools';

// mock-llm: OpenAI-compatible mock server (+ CLI tools/bin/mock-llm.js)
export {
  startMockLlm,
  MOCK_LLM_BODY_MAX_BYTES,
  MOCK_LLM_COUNT_PATH,
  MOCK_LLM_MODEL,
  MOCK_LLM_REQUESTS_PATH,
} from './mock-llm/mock-llm-server';
export type { MockLlm, MockLlmOptions } from './mock-llm/mock-llm-server';
export { REDACTED_HEADERS, redactedHeaderValue } from './mock-llm/recorded-request';
export type { RecordedRequest } from './mock-llm/recorded-request';
export { parseTurnTask, buildReceiptCommand, mockReplyText } from './mock-llm/agent-turn';
export type { TurnTask } from './mock-llm/agent-turn';
export { chooseReply, parseMockScript, MockScriptSchema, MockScriptEntrySchema } from './mock-llm/mock-script';
export type { MockScriptEntry, MockReply } from './mock-llm/mock-script';
export { MOCK_LLM_BIN } from './mock-llm/mock-llm-bin';
export { startUsageLlm, USAGE_LLM_BODY_MAX_BYTES } from './mock-llm/usage-llm-server';
export type { UsageLlm, UsageLlmOptions, UsageLlmRequest } from './mock-llm/usage-llm-server';
export { usageJson, usageSse } from './mock-llm/usage-shapes';
export type { MockUsage, UsageProtocol } from './mock-llm/usage-shapes';

// echo-argv: argv/env fidelity fixture (tools/bin/echo-argv.js)
export { ECHO_ARGV_BIN, parseEchoArgvOutput, EchoArgvOutputSchema } from './echo-argv/echo-argv';
export type { EchoArgvOutput } from './echo-argv/echo-argv';

// build-once: `tsc -b` serialised across jest projects/workers (specs that run built entries)
export { buildOnce, REPO_ROOT } from './build-once/build-once';
export type { BuildResult } from './build-once/build-once';

// free-port: a loopback port for a process that must be told it up front, retried on EADDRINUSE
export { freePort, onFreshPort } from './net/free-port';

// sshd: a real OpenSSH server (generated keys and config, high port, loopback or a network namespace) for ssh specs
export { startTestSshd, createTestNetns, testSshdUnavailable, testNetnsUnavailable, SSHD_BIN, SSH_KEYGEN_BIN } from './sshd/test-sshd';
export type { TestSshd } from './sshd/test-sshd';

// fuzz: seeded fast-check runs of a target's real code path, per-input timer, shrunk failures saved as regression fixtures
export { runFuzzTarget, replayFuzzRegressions } from './fuzz/fuzz-run';
export type { FuzzReport } from './fuzz/fuzz-run';
export type { FuzzTarget } from './fuzz/fuzz-target';
export { fuzzSettings, FUZZ_FAST_COUNT, FUZZ_FAST_HANG_MS } from './fuzz/fuzz-settings';
export type { FuzzSettings } from './fuzz/fuzz-settings';
export { FUZZ_REGRESSIONS_DIR, loadFuzzRegressions, saveFuzzRegression } from './fuzz/fuzz-regressions';
export { encodeFuzzValue, decodeFuzzValue } from './fuzz/fuzz-value';
export type { FuzzJson } from './fuzz/fuzz-value';
export { mutatedConfig, mutateConfig } from './fuzz/arbitraries/config-mutations';
export type { ConfigMutation } from './fuzz/arbitraries/config-mutations';
export { hostileValue, nested, HOSTILE_KEYS, HOSTILE_NUMBERS, HOSTILE_STRINGS } from './fuzz/arbitraries/hostile-values';
export { docsConfigs } from './fuzz/corpus/docs-configs';
export { documentedErrorCodes } from './fuzz/corpus/documented-codes';
export { expectDocumentedCode, expectPrototypeClean } from './fuzz/corpus/criteria';

// fs-snapshot: a tree's owners, modes, links and contents, compared before and after a refused operation
export { snapshotTree } from './fs-snapshot/host-snapshot';
export type { EntryFacts } from './fs-snapshot/host-snapshot';
