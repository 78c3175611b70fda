/**
 * A turn the engine cancels (restart, remove, swarm stop — also after it timed out) is over for good:
 * the REAL `genswarms-agent` started next in the same workspace must not answer its inbox file again,
 * and nothing from it may be routed (docs/messaging.md: each item is dispatched exactly once). The old
 * process is caught mid-turn by a slow mock LLM; the next queued task must run normally, exactly once.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildOnce, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { makeHarness, waitEvent, waitFor, type Harness } from './harness';

const REPO = path.resolve(__dirname, '..', '..', '..');
const AGENT_DIR = path.join(REPO, 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
/** Long enough that a restart always lands while the first request is still unanswered. */
const LLM_DELAY_MS = 1500;
const TASK_A = 'task alpha: write the plan';
const TASK_B = 'task bravo: summarise';
const SCRIPT = [
  {
    match: 'task alpha',
    response: 'answer alpha\n@peer: outbox line from alpha\n<<SWARM_MSG:TO=peer:START>>marker from alpha<<SWARM_MSG:END>>',
  },
  { match: 'task bravo', response: 'answer bravo' },
];

function swarmConfig(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    agents: [
      { name: 'w', backend: { type: 'local' }, network: 'open', ...extra },
      { name: 'peer', backend: { type: 'mock', opts: { replies: ['peer got {{content}}'] } } },
    ],
    topology: [['w', 'peer']],
  };
}

function asked(llm: MockLlm, text: string): number {
  return llm.requests.filter((r) => JSON.stringify(r.body).includes(text)).length;
}

describe('a cancelled turn is never answered again by the next genswarms-agent', () => {
  let llm: MockLlm;
  let h: Harness;

  beforeAll(async () => {
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !existsSync(AGENT_ENTRY))
      throw new Error(`agent build failed:\n${built.kind === 'failed' ? built.output : 'no entry'}`);
    llm = await startMockLlm({ script: SCRIPT, delayMs: LLM_DELAY_MS });
  }, 180_000);
  afterAll(async () => {
    await llm?.close();
  });
  beforeEach(async () => {
    llm.requests.length = 0;
    h = await makeHarness({ agentEntry: AGENT_ENTRY, llmEndpoint: `${llm.url}/v1` });
  });
  afterEach(() => h.cleanup());

  async function idle(swarm: string, agent = 'w'): Promise<void> {
    await waitFor(async () => (await h.engine.getAgent(swarm, agent)).state === 'idle', `${agent} idle`, { timeoutMs: 30_000 });
  }

  /** Task A reaches the LLM (the turn is in flight); returns A's turn id. */
  async function alphaInFlight(swarm: string): Promise<string> {
    await idle(swarm);
    await h.engine.sendTask(swarm, 'w', TASK_A);
    await waitFor(async () => asked(llm, 'task alpha') === 1, 'the LLM request of task A', { timeoutMs: 30_000 });
    return waitFor(async () => (await h.engine.store.listTurns(swarm, 'w', 10)).find((t) => t.content === TASK_A)?.id, 'turn A');
  }

  /** Task B runs normally, exactly once; A stays cancelled, unanswered, and nothing of it is routed. */
  async function expectOnlyBravo(swarm: string, alpha: string, workspace: string, bravoStatus = 'completed'): Promise<void> {
    const bravo = await waitFor(
      async () => (await h.engine.listTurns(swarm, 'w')).turns.find((t) => t.reply_preview === 'answer bravo'),
      'turn B completes',
      { timeoutMs: 30_000 },
    );
    expect(bravo.status).toBe(bravoStatus);
    const turns = (await h.engine.listTurns(swarm, 'w')).turns;
    expect(turns.filter((t) => t.id !== bravo.id).map((t) => [t.id, t.status])).toEqual([[alpha, 'cancelled']]);
    // The agent answers strictly in seq order: had it redone A (seq below B's), it would have asked before B.
    expect(asked(llm, 'task alpha')).toBe(1);
    expect(asked(llm, 'task bravo')).toBe(1);
    expect((await h.engine.listMessages(swarm)).messages).toEqual([]);
    expect((await h.engine.listTurns(swarm, 'peer')).turns).toEqual([]);
    const turnDir = path.join(workspace, '.genswarms', 'turns', alpha);
    expect(existsSync(path.join(turnDir, 'reply.md'))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(turnDir, 'done.json'), 'utf8'))).toEqual({
      v: 1,
      turn: alpha,
      status: 'error',
      error: 'cancelled by the orchestrator',
    });
  }

  it('restartAgent mid-turn: the new process skips the cancelled item and runs the queued task once', async () => {
    await h.engine.startSwarm({ config: swarmConfig('rs') });
    const alpha = await alphaInFlight('rs');
    await h.engine.sendTask('rs', 'w', TASK_B);
    await h.engine.restartAgent('rs', 'w');
    await expectOnlyBravo('rs', alpha, path.join(h.home, 'workspaces', 'rs', 'w'));
  }, 60_000);

  it('a timed_out turn, then restartAgent: cancelled, never answered, the queued task runs once', async () => {
    await h.engine.startSwarm({ config: swarmConfig('to', { turn_timeout_ms: 200 }) });
    const alpha = await alphaInFlight('to');
    await waitFor(async () => (await h.engine.store.getTurn(alpha))?.status === 'timed_out', 'turn A timed out');
    await h.engine.sendTask('to', 'w', TASK_B);
    await h.engine.restartAgent('to', 'w');
    // B has the same limit and the same slow LLM: it times out too, and its late receipt still frees w.
    await expectOnlyBravo('to', alpha, path.join(h.home, 'workspaces', 'to', 'w'), 'timed_out');
  }, 60_000);

  it('removeAgent mid-turn, then the same agent added back: the cancelled item is not answered', async () => {
    await h.engine.startSwarm({ config: swarmConfig('rm') });
    const alpha = await alphaInFlight('rm');
    await h.engine.removeAgent('rm', 'w');
    await h.engine.addAgent('rm', { name: 'w', backend: { type: 'local' }, network: 'open', connections: ['peer'] });
    await idle('rm');
    await h.engine.sendTask('rm', 'w', TASK_B);
    await expectOnlyBravo('rm', alpha, path.join(h.home, 'workspaces', 'rm', 'w'));
  }, 60_000);

  it('swarm stop mid-turn, then a start on the same workspace: the cancelled item is not answered', async () => {
    await h.engine.startSwarm({ config: swarmConfig('st') });
    const alpha = await alphaInFlight('st');
    await h.engine.stopSwarm('st');
    expect((await h.engine.store.getTurn(alpha))?.status).toBe('cancelled');
    await h.engine.startSwarm({ config: swarmConfig('st') });
    await idle('st');
    await h.engine.sendTask('st', 'w', TASK_B);
    await expectOnlyBravo('st', alpha, path.join(h.home, 'workspaces', 'st', 'w'));
  }, 60_000);
});

/** A client that ignores its inbox and, on SIGTERM, leaves an outbox file behind before exiting. */
const LATE_SENDER = `
const fs = require('node:fs'), path = require('node:path');
const ws = process.env.GENSWARMS_WORKSPACE;
process.on('SIGTERM', () => {
  fs.mkdirSync(path.join(ws, '.outbox'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.outbox', '.late.tmp'), JSON.stringify({ to: 'peer', content: 'sent while dying' }));
  fs.renameSync(path.join(ws, '.outbox', '.late.tmp'), path.join(ws, '.outbox', 'late.json'));
  process.exit(0);
});
fs.writeFileSync(path.join(ws, 'handler-installed'), '');
setInterval(() => undefined, 1000);
`;

describe('what a cancelled turn leaves in .outbox', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(() => h.cleanup());

  it('is deleted unrouted once the stopped process is gone (one outbox_rejected turn_cancelled), not routed by the next session', async () => {
    const script = path.join(h.home, 'late-sender.js');
    writeFileSync(script, LATE_SENDER, { mode: 0o644 }); // a root test process runs the client as the agent uid: it must read it
    const config = {
      name: 'lo',
      agents: [
        { name: 'w', backend: { type: 'local' }, network: 'open', client: { command: [process.execPath, script] } },
        { name: 'peer', backend: { type: 'mock', opts: { replies: ['peer got {{content}}'] } } },
      ],
      topology: [['w', 'peer']],
    };
    await h.engine.startSwarm({ config });
    await waitFor(async () => (await h.engine.getAgent('lo', 'w')).state === 'idle', 'w idle');
    await h.engine.sendTask('lo', 'w', 'never answered');
    const turn = await waitFor(async () => (await h.engine.store.listTurns('lo', 'w', 1)).find((t) => t.delivered), 'turn delivered');
    const ws = path.join(h.home, 'workspaces', 'lo', 'w');
    await waitFor(async () => existsSync(path.join(ws, 'handler-installed')), 'the client is ready for SIGTERM');
    await h.engine.restartAgent('lo', 'w');
    const dropped = await waitEvent(h.engine, 'lo', (e) => e.event_type === 'outbox_rejected', 'outbox_rejected');
    expect(dropped.metadata).toMatchObject({ reason: 'turn_cancelled', turn: turn.id, count: 1 });
    expect((await h.engine.store.getTurn(turn.id))?.status).toBe('cancelled');
    expect(readdirSync(path.join(ws, '.outbox'))).toEqual([]);
    expect((await h.engine.listMessages('lo')).messages).toEqual([]);
    expect((await h.engine.listTurns('lo', 'peer')).turns).toEqual([]);
  }, 30_000);
});
