import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODING_CLIENTS, resolveInstalledClient } from '@genswarms/runners';
import type { CodingClientName } from '@genswarms/runners';
import { buildOnce, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { getTurn, listTurns, sendTask } from '../src/lib/swarms/agent-ops';
import { makeHarness, waitFor, type Harness } from './harness';

/**
 * Two published coding clients as agents of one swarm (docs/clients.md), each headless in bwrap with
 * `network: isolated` against the mock LLM: a task reaches the first, its reply is the engine's turn
 * result, and the message its tool call leaves in the outbox (`SEND_TO:<agent>:` in the task) is routed to
 * the second, which answers it. The key never appears on a command line.
 */
const REPO = path.resolve(__dirname, '..', '..', '..');
const AGENT_DIR = path.join(REPO, 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
const KEY = `sk-gs-engine-clients-${process.pid}`;
const CLIENTS_DIR = process.env['GENSWARMS_TEST_CLIENTS_DIR'] ?? '';

function skipReason(pair: readonly CodingClientName[]): string | undefined {
  if (!['/usr/bin/bwrap', '/usr/bin/socat'].every((p) => fs.existsSync(p))) return 'bwrap and socat are needed';
  if (CLIENTS_DIR === '') return 'GENSWARMS_TEST_CLIENTS_DIR is not set (.ci/run installs the pinned clients and sets it)';
  for (const name of pair) {
    const found = resolveInstalledClient(CLIENTS_DIR, name);
    if (found.kind !== 'ok') return `${name} ${CODING_CLIENTS[name].pinnedVersion} is not usable in ${CLIENTS_DIR}: ${found.reason}`;
  }
  return undefined;
}

/** Every process's argv holding `secret`, sampled every 20 ms until stopped. */
function watchArgv(secret: string): () => string[] {
  const hits = new Set<string>();
  const scan = (): void => {
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(secret)) hits.add(pid);
      } catch {
        // expected: the process exited between readdir and read
      }
    }
  };
  const timer = setInterval(scan, 20);
  return () => {
    clearInterval(timer);
    scan();
    return [...hits];
  };
}

const PAIRS: ReadonlyArray<readonly [CodingClientName, CodingClientName]> = [
  ['codex', 'claude'],
  ['claude', 'opencode'],
  ['opencode', 'codex'],
];

describe('two published clients in one swarm (bwrap, network isolated, the mock LLM)', () => {
  let llm: MockLlm;
  let h: Harness | undefined;
  beforeAll(async () => {
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !fs.existsSync(AGENT_ENTRY)) throw new Error('agent build failed');
    llm = await startMockLlm();
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  test.each(PAIRS)(
    '%s → %s: the reply is the turn result, the outbox message is routed and answered',
    async (sender, receiver) => {
      const skip = skipReason([sender, receiver]);
      if (skip !== undefined) {
        console.warn(`SKIPPING ${sender} → ${receiver}: ${skip}`);
        return;
      }
      h = await makeHarness({
        agentEntry: AGENT_ENTRY,
        llmEndpoint: `${llm.url}/v1`,
        llm: { serverApiKey: KEY, allowedHosts: ['127.0.0.1'], endpointApis: ['openai-responses', 'openai-chat', 'anthropic-messages'] },
        clientsDir: CLIENTS_DIR,
      });
      const agent = (name: string, client: CodingClientName): Record<string, unknown> => ({
        name,
        backend: 'bwrap',
        network: 'isolated',
        client,
        model: 'mock-model',
      });
      const config = { name: 'pair', agents: [agent('writer', sender), agent('critic', receiver)], topology: [['writer', 'critic']] };
      const argv = watchArgv(KEY);
      expect(await h.engine.startSwarm({ config })).toEqual({ status: 'created', swarm_name: 'pair' });
      const content = 'summarise notes.md SEND_TO:critic:please review the summary';
      await sendTask(h.engine.ctx, 'pair', 'writer', content);
      const engine = h.engine;
      const done = await waitFor(
        async () => (await listTurns(engine.ctx, 'pair', 'critic')).turns.find((t) => t.status !== 'running' && t.status !== 'queued'),
        'the critic turn',
        { timeoutMs: 60_000 },
      );
      const [first] = (await listTurns(engine.ctx, 'pair', 'writer')).turns;
      const writerTurn = await getTurn(engine.ctx, 'pair', 'writer', first?.id ?? '');
      expect(writerTurn).toMatchObject({
        status: 'completed',
        from: '_operator',
        reply: `mock reply to turn ${writerTurn.id}: ${content}\n`,
      });
      expect(done).toMatchObject({ status: 'completed', from: 'writer' });
      expect((await getTurn(engine.ctx, 'pair', 'critic', done.id)).reply).toBe(
        `mock reply to turn ${done.id}: please review the summary\n`,
      );
      expect((await engine.listMessages('pair')).messages).toMatchObject([{ from: 'writer', to: 'critic', type: 'direct' }]);
      expect(argv()).toEqual([]);
    },
    90_000,
  );
});
