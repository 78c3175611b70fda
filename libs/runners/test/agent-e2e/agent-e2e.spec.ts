import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, watchTurn, writeFileSafely } from '@genswarms/receipts';
import type { TurnReceipt } from '@genswarms/receipts';
import { buildOnce, redactedHeaderValue, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import type { AgentLaunchSpec, BackendConfig, LaunchPlan, NetworkMode, Runner, RunnerHandle } from '../../src/index';
import { createBwrapRunner, createLocalRunner } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from '../support';

/**
 * End to end: the REAL built `genswarms-agent` (apps/agent/dist/main.js) started by the REAL local and
 * bwrap runners, answering an operator task through the REAL mock LLM (tools). Proves the agent runs
 * unchanged inside the sandbox (bwrap binds only its dist directory and node: any package import would
 * crash it), reaches the LLM on open and isolated networks, gets a key only when the docs/security.md decision
 * allows, and answers with an error receipt when `network: none` leaves it without an endpoint.
 */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const AGENT_DIR = path.join(REPO, 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
const SERVER_KEY = `sk-e2e-server-${process.pid}`;
const TASK = 'e2e task: summarise the notes';
const SCRIPT = [{ match: 'e2e task', response: 'scripted answer for [{{content}}]' }];
const EXPECTED_REPLY = `scripted answer for [${TASK}]`;

const missing = ['bwrap', 'socat'].filter((name) => !haveBinary(name));
const suite = missing.length === 0 ? describe : describe.skip;
if (missing.length > 0) console.warn(`SKIPPED agent-e2e: ${missing.join(', ')} not installed (bubblewrap and socat are needed)`);

interface Case {
  readonly name: string;
  readonly runner: () => Runner;
  readonly backend: 'local' | 'bwrap';
  readonly network: NetworkMode;
  /** The agent's own endpoint (untrusted unless allowlisted); undefined → the operator default. */
  readonly agentEndpoint?: (llm: MockLlm) => string;
  /** Expected Authorization header on the one recorded request; undefined → absent. */
  readonly authorization?: string;
  readonly notices: readonly string[];
  /** GENSWARMS_LLM_ENDPOINT as the agent sees it. */
  readonly endpointSeen: (llm: MockLlm) => string;
  /** The agent's backend config (e.g. `seccomp`). */
  readonly config?: BackendConfig;
}

const ANSWERED: readonly Case[] = [
  {
    name: 'local runner, network open, untrusted agent endpoint: answered, key withheld',
    runner: createLocalRunner,
    backend: 'local',
    network: 'open',
    agentEndpoint: (llm) => `${llm.url}/v1`,
    notices: ['api_key_withheld'],
    endpointSeen: (llm) => `${llm.url}/v1`,
  },
  {
    name: 'local runner, network open, operator default endpoint: answered with the server key',
    runner: createLocalRunner,
    backend: 'local',
    network: 'open',
    authorization: `Bearer ${SERVER_KEY}`,
    notices: [],
    endpointSeen: (llm) => `${llm.url}/v1`,
  },
  {
    name: 'bwrap runner, network open, untrusted agent endpoint: answered, key withheld',
    runner: createBwrapRunner,
    backend: 'bwrap',
    network: 'open',
    agentEndpoint: (llm) => `${llm.url}/v1`,
    notices: ['api_key_withheld'],
    endpointSeen: (llm) => `${llm.url}/v1`,
  },
  {
    name: 'bwrap runner, network open, operator default endpoint: answered with the server key',
    runner: createBwrapRunner,
    backend: 'bwrap',
    network: 'open',
    authorization: `Bearer ${SERVER_KEY}`,
    notices: [],
    endpointSeen: (llm) => `${llm.url}/v1`,
  },
  {
    name: 'bwrap runner, network isolated (forwarder pinned to the mock): answered through 127.0.0.1:17080',
    runner: createBwrapRunner,
    backend: 'bwrap',
    network: 'isolated',
    authorization: `Bearer ${SERVER_KEY}`,
    notices: [],
    endpointSeen: () => 'http://127.0.0.1:17080/v1',
  },
  {
    name: 'bwrap runner, network isolated, seccomp default: a normal turn still works under the filter',
    runner: createBwrapRunner,
    backend: 'bwrap',
    network: 'isolated',
    authorization: `Bearer ${SERVER_KEY}`,
    notices: [],
    endpointSeen: () => 'http://127.0.0.1:17080/v1',
    config: { seccomp: 'default' },
  },
];

suite('genswarms-agent end to end through the real runners', () => {
  let llm: MockLlm;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let abort: AbortController;
  let output: string[];

  beforeAll(async () => {
    // Built once, argv only: the sandbox runs the real dist, exactly as the server does.
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !existsSync(AGENT_ENTRY))
      throw new Error(`agent build failed:\n${built.kind === 'failed' ? built.output : 'no entry'}`);
    llm = await startMockLlm({ script: SCRIPT });
  }, 120_000);

  afterAll(async () => {
    await llm?.close();
  });

  beforeEach(() => {
    dirs = makeSandboxDirs();
    abort = new AbortController();
    output = [];
    llm.requests.length = 0;
  });

  afterEach(async () => {
    abort.abort();
    await handle?.stop({ graceMs: 2000 });
    handle = undefined;
    dirs.cleanup();
  });

  /** Starts the agent through `runner`, writes one operator task and resolves with its receipt. */
  async function runOneTurn(
    runner: Runner,
    spec: AgentLaunchSpec,
    ctx: ReturnType<typeof makeContext>,
  ): Promise<{ receipt: TurnReceipt; plan: LaunchPlan }> {
    const plan = runner.plan(spec, ctx);
    handle = await runner.start(plan, ctx);
    handle.onOutput((stream, line) => output.push(`${stream}: ${line}`));
    const exited = new Promise<never>((_resolve, reject) => {
      handle?.onExit((code, signal) =>
        reject(new Error(`agent exited (${String(code)}/${String(signal)}) before the receipt:\n${output.join('\n')}`)),
      );
    });
    const turn = newTurnId();
    const prepared = await prepareTurnDir(dirs.workspace, turn);
    expect(prepared.kind).toBe('ok');
    const item = { from: '_operator', content: TASK, seq: 1, timestamp: new Date().toISOString(), turn };
    const written = await writeFileSafely(path.join(dirs.workspace, '.inbox'), '0001__operator.json', JSON.stringify(item));
    expect(written.kind).toBe('ok');
    const receipt = await Promise.race([watchTurn(dirs.workspace, turn, { signal: abort.signal }), exited]);
    return { receipt, plan };
  }

  test.each(ANSWERED.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const ctx = makeContext(dirs.home, {
      agentEntry: AGENT_ENTRY,
      llm: { defaultEndpoint: `${llm.url}/v1`, serverApiKey: SERVER_KEY, allowedHosts: [] },
    });
    const spec = makeSpec({
      backend: c.backend,
      network: c.network,
      workspace: dirs.workspace,
      ...(c.agentEndpoint === undefined ? {} : { endpoint: c.agentEndpoint(llm) }),
      ...(c.config === undefined ? {} : { config: c.config }),
    });
    const { receipt, plan } = await runOneTurn(c.runner(), spec, ctx);

    expect({ receipt, output: output.join('\n') }).toEqual({
      receipt: { kind: 'ok', status: 'ok', reply: EXPECTED_REPLY },
      output: expect.any(String),
    });
    expect(plan.notices).toEqual(c.notices);
    expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBe(c.endpointSeen(llm));
    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe(c.authorization === undefined ? undefined : redactedHeaderValue(c.authorization));
    // Isolated: the agent talked to its own loopback bridge; the Host header names the pinned upstream.
    expect(request?.headers['host']).toBe(`127.0.0.1:${llm.port}`);
    const body = request?.body as { messages: Array<{ role: string; content: string }> };
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: TASK });
    expect(output.join('\n')).not.toContain(SERVER_KEY);
  });

  it('bwrap runner, network none: no endpoint reaches the agent, which writes an error receipt instead of hanging', async () => {
    const ctx = makeContext(dirs.home, {
      agentEntry: AGENT_ENTRY,
      llm: { defaultEndpoint: `${llm.url}/v1`, serverApiKey: SERVER_KEY, allowedHosts: [] },
    });
    const spec = makeSpec({ backend: 'bwrap', network: 'none', workspace: dirs.workspace });
    const { receipt, plan } = await runOneTurn(createBwrapRunner(), spec, ctx);

    expect(receipt).toEqual({ kind: 'ok', status: 'error', error: 'no LLM endpoint configured', reply: null });
    expect(plan.env['GENSWARMS_LLM_ENDPOINT']).toBeUndefined();
    expect(plan.env['GENSWARMS_LLM_API_KEY']).toBeUndefined();
    expect(llm.requests).toEqual([]);
  });
});
