import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, watchTurn } from '@genswarms/receipts';
import { startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { createTmuxDockerRunner, createTmuxRunner } from '../../src/index';
import type { AgentLaunchSpec, CodingClientName, RunnerHandle } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from '../support';
import { clientUnderTest, watchArgvFor } from './real-client-support';
import { dockerSkipReason, TEST_IMAGE } from '../docker/docker-support';
import { waitFor } from '@genswarms/test-kit';

/**
 * The published clients' TUIs in a tmux pane with only what their adapter wrote into HOME (docs/clients.md):
 * no sign-in, trust, onboarding, key-approval or permission-mode screen comes up; the client reaches its
 * input prompt, and the pasted turn is answered through the mock LLM. When to paste is not this spec's
 * concern (it waits for the prompt, then a margin).
 */
const KEY = `sk-gs-pane-${process.pid}-secret`;
/** What each client shows once its input prompt is up. */
const READY: Readonly<Record<CodingClientName, RegExp>> = {
  codex: /Ask Codex to do anything/,
  claude: /\? for shortcuts/,
  opencode: /Ask anything/,
};
/** First-run screens that would wait for a person (as seen in panes without the adapter's files). */
const FIRST_RUN = /sign in|trust this|do you trust|use this api key|auto mode your default|choose how you want|select.*theme/i;
/** Margin after the prompt shows before the paste (some clients ignore input right after drawing it). */
const SETTLE_MS = 2500;

const missing = ['tmux', 'bwrap', 'xargs'].filter((name) => !haveBinary(name));
if (missing.length > 0) console.warn(`SKIPPING the pane specs: ${missing.join(', ')} not installed`);

const CASES = (['codex', 'claude', 'opencode'] as const).flatMap((client) => {
  const under = clientUnderTest(client);
  return (['none', 'bwrap', 'docker'] as const).map((inner) => [client, inner, under] as const);
});

async function screenUntil(handle: RunnerHandle, ready: RegExp, limitMs: number): Promise<string> {
  const screen = async (): Promise<string> => ((await handle.captureScreen?.()) ?? []).join('\n');
  return waitFor(screen, 'the client to show its prompt', { timeoutMs: limitMs, intervalMs: 200, until: (text) => ready.test(text) });
}

/**
 * The host's address on the default docker bridge (`ip -4 -o addr show docker0`; node lists no interface that is
 * down, and docker0 is down while no container runs): where a tmux+docker container reaches the mock.
 */
function bridgeGateway(): string | undefined {
  const ip = ['/usr/sbin/ip', '/usr/bin/ip', '/sbin/ip', '/bin/ip'].find((p) => existsSync(p));
  if (ip === undefined) return undefined;
  const out = spawnSync(ip, ['-4', '-o', 'addr', 'show', 'docker0'], { shell: false, encoding: 'utf8' });
  return /inet ([0-9.]+)\//.exec(out.stdout ?? '')?.[1];
}

describe('published clients in a tmux pane', () => {
  let llm: MockLlm;
  /** A second mock on the docker bridge (tmux runner docker), when an engine and the test image are here. */
  let bridgeLlm: MockLlm | undefined;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  // one runner per test: its tmux server lives in that test's GENSWARMS_HOME
  let runner: ReturnType<typeof createTmuxRunner>;
  const timings: string[] = [];
  beforeAll(async () => {
    llm = await startMockLlm();
    const gateway = dockerSkipReason() === undefined ? bridgeGateway() : undefined;
    if (gateway !== undefined) bridgeLlm = await startMockLlm({ host: gateway });
  });
  afterAll(async () => {
    await llm?.close();
    await bridgeLlm?.close();
    if (timings.length > 0) console.warn(`pane turn times against the mock (paste → receipt):\n${timings.join('\n')}`);
  });
  beforeEach(() => {
    dirs = makeSandboxDirs();
    runner = createTmuxRunner({ docker: createTmuxDockerRunner() });
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    await runner.close('shutdown');
    dirs.cleanup();
  });

  async function paneTurn(client: CodingClientName, inner: 'none' | 'bwrap' | 'docker', prefix: string, mock: MockLlm): Promise<void> {
    const ctx = makeContext(dirs.home, {
      clientsDir: path.dirname(path.dirname(prefix)),
      llm: {
        defaultEndpoint: `${mock.url}/v1`,
        serverApiKey: KEY,
        allowedHosts: [new URL(mock.url).hostname],
        endpointApis: ['openai-responses', 'openai-chat', 'anthropic-messages'],
      },
    });
    const image = inner === 'docker' ? { image: TEST_IMAGE } : {};
    const spec: AgentLaunchSpec = makeSpec({
      backend: 'tmux',
      runner: inner,
      workspace: dirs.workspace,
      client,
      model: 'mock-model',
      ...image,
    });
    const argv = watchArgvFor(KEY);
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const screen = await screenUntil(handle, READY[client], 40_000);
    expect(screen).not.toMatch(FIRST_RUN);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const turn = newTurnId();
    expect((await prepareTurnDir(dirs.workspace, turn)).kind).toBe('ok');
    const turnsDir = inner === 'none' ? path.join(dirs.workspace, '.genswarms', 'turns') : '/workspace/.genswarms/turns';
    const started = Date.now();
    await handle.deliver({ turnId: turn, seq: 1, from: '_operator', content: 'summarise notes.md', clientTurnsDir: turnsDir });
    const receipt = await watchTurn(dirs.workspace, turn, { signal: AbortSignal.timeout(40_000) });
    timings.push(`  ${client} tmux runner ${inner}: ${Date.now() - started} ms`);
    expect(receipt).toEqual({ kind: 'ok', status: 'ok', reply: `mock reply to turn ${turn}: summarise notes.md\n` });
    expect(argv.stop()).toEqual([]);
  }

  test.each(CASES)(
    '%s, runner %s: no first-run screen, the pasted turn is answered',
    async (client, inner, under) => {
      if ('skip' in under || missing.length > 0) return;
      const mock = inner === 'docker' ? bridgeLlm : llm;
      if (mock === undefined) {
        console.warn(`SKIPPING ${client} tmux runner docker: ${dockerSkipReason() ?? 'no docker bridge gateway'}`);
        return;
      }
      await paneTurn(client, inner, under.client.prefix, mock);
    },
    120_000,
  );
});
