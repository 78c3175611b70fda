import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, watchTurn, writeFileSafely } from '@genswarms/receipts';
import { buildOnce, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { createBwrapRunner, createDockerRunner, createLocalRunner } from '../../src/index';
import type { AgentLaunchSpec, CodingClientName, NetworkMode, Runner, RunnerHandle } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from '../support';
import { clientUnderTest, TASK_CONTENT, watchArgvFor } from './real-client-support';
import { dockerSkipReason, TEST_IMAGE } from '../docker/docker-support';

/**
 * The published clients run headless by the real runners (docs/clients.md "Modes"): genswarms-agent in the
 * sandbox runs `codex exec` / `claude -p` / `opencode run` once per inbox item; the adapters' HOME files
 * point the client at the mock LLM — through the pinned forwarder for `network: isolated` (the in-sandbox
 * bridge, the upstream Host header). The mock answers the delivery text with the shell tool call that writes
 * the receipt and the outbox message.
 */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const AGENT_DIR = path.join(REPO, 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
const KEY = `sk-gs-headless-${process.pid}-secret`;
const TURN_TIMEOUT_MS = 50_000;

const missing = ['bwrap', 'socat'].filter((name) => !haveBinary(name));
if (missing.length > 0) console.warn(`SKIPPING the headless runner specs: ${missing.join(', ')} not installed`);

interface Mode {
  readonly name: string;
  readonly runner: () => Runner;
  readonly backend: 'local' | 'bwrap' | 'docker';
  readonly network: NetworkMode;
  readonly backendOpts?: Record<string, unknown>;
  /** Why this mode cannot run here (a loud skip), or undefined. */
  readonly skip?: () => string | undefined;
}
const MODES: readonly Mode[] = [
  { name: 'bwrap, network isolated (through the pinned forwarder)', runner: createBwrapRunner, backend: 'bwrap', network: 'isolated' },
  { name: 'local, headless', runner: createLocalRunner, backend: 'local', network: 'open', backendOpts: { client_mode: 'headless' } },
  { name: 'docker, network isolated', runner: createDockerRunner, backend: 'docker', network: 'isolated', skip: dockerSkipReason },
];

const CLIENTS: readonly CodingClientName[] = ['codex', 'claude', 'opencode'];
const CASES = CLIENTS.flatMap((client) => {
  const under = clientUnderTest(client);
  return MODES.map((mode) => [client, mode.name, mode, under] as const);
});

describe('published clients headless through the runners', () => {
  let llm: MockLlm;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let abort: AbortController;
  const timings: string[] = [];

  beforeAll(async () => {
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !existsSync(AGENT_ENTRY))
      throw new Error(`agent build failed:\n${built.kind === 'failed' ? built.output : 'no entry'}`);
    llm = await startMockLlm();
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    if (timings.length > 0) console.warn(`headless turn times against the mock (inbox written → receipt):\n${timings.join('\n')}`);
  });
  beforeEach(() => {
    dirs = makeSandboxDirs();
    abort = new AbortController();
    llm.requests.length = 0;
  });
  afterEach(async () => {
    abort.abort();
    await handle?.stop({ graceMs: 2000 });
    handle = undefined;
    dirs.cleanup();
  });

  test.each(CASES)(
    '%s, %s: a turn completes, the outbox message is written, the key is on no command line',
    async (client, _m, mode, under) => {
      if ('skip' in under || missing.length > 0) return;
      const modeSkip = mode.skip?.();
      if (modeSkip !== undefined) {
        console.warn(`SKIPPING ${client} ${mode.name}: ${modeSkip}`);
        return;
      }
      const ctx = makeContext(dirs.home, {
        agentEntry: AGENT_ENTRY,
        clientsDir: path.dirname(path.dirname(under.client.prefix)),
        llm: {
          defaultEndpoint: `${llm.url}/v1`,
          serverApiKey: KEY,
          allowedHosts: ['127.0.0.1'],
          endpointApis: ['openai-responses', 'openai-chat', 'anthropic-messages'],
        },
      });
      const spec: AgentLaunchSpec = makeSpec({
        backend: mode.backend,
        network: mode.network,
        workspace: dirs.workspace,
        client,
        model: 'mock-model',
        topologyTargets: ['critic'],
        ...(mode.backendOpts === undefined ? {} : { backendOpts: mode.backendOpts }),
        ...(mode.backend === 'docker' ? { image: TEST_IMAGE } : {}),
      });
      const runner = mode.runner();
      const plan = runner.plan(spec, ctx);
      const output: string[] = [];
      const argv = watchArgvFor(KEY);
      handle = await runner.start(plan, ctx);
      handle.onOutput((stream, line) => output.push(`${stream}: ${line}`));
      const turn = newTurnId();
      expect((await prepareTurnDir(dirs.workspace, turn)).kind).toBe('ok');
      const started = Date.now();
      const item = { from: '_operator', content: TASK_CONTENT, seq: 1, timestamp: new Date().toISOString(), turn };
      expect((await writeFileSafely(path.join(dirs.workspace, '.inbox'), '0001__operator.json', JSON.stringify(item))).kind).toBe('ok');
      const timeout = setTimeout(() => abort.abort(), TURN_TIMEOUT_MS);
      const receipt = await watchTurn(dirs.workspace, turn, { signal: abort.signal }).finally(() => clearTimeout(timeout));
      const ms = Date.now() - started;
      const hits = argv.stop();
      const log = output.join('\n');
      expect({ receipt, log }).toEqual({
        receipt: { kind: 'ok', status: 'ok', reply: `mock reply to turn ${turn}: ${TASK_CONTENT}\n` },
        log: expect.any(String),
      });
      timings.push(`  ${client} ${mode.name}: ${ms} ms`);
      const message = JSON.parse(readFileSync(path.join(dirs.workspace, '.outbox', `mock-${turn}.json`), 'utf8')) as unknown;
      expect(message).toEqual({ to: 'critic', content: 'please review the summary' });
      expect(hits).toEqual([]);
      expect(log).not.toContain(KEY);
      // the receipt is written by the tool call, so the tool result's request may still be on its way
      const model = llm.requests.filter((r) => r.method === 'POST');
      expect(model.length).toBeGreaterThanOrEqual(1);
      // the live process keeps every promise of the plan (the client install and agent binds included)
      expect((await handle.isolation?.())?.differences ?? []).toEqual([]);
      // isolated: the client spoke to its own loopback bridge; the Host header names the pinned upstream
      expect(new Set(model.map((r) => r.headers['host']))).toEqual(new Set([`127.0.0.1:${llm.port}`]));
    },
    90_000,
  );
});
