import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockLlmProcess, RunningProcess } from './support/harness';
import { agentEnv, startAgent, startMockLlm, stop, turnFile, unlessFatal, waitFor, waitForDone, writeInboxItem } from './support/harness';

const TURNS = ['q1', 'q2', 'q3', 'q4', 'q5'];

describe('genswarms-agent queue, restart and resume', () => {
  let dir = '';
  let llm: MockLlmProcess | undefined;
  let agent: RunningProcess | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-queue-'));
  });
  afterEach(async () => {
    await stop(agent);
    await stop(llm);
    agent = undefined;
    llm = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function doneTurns(ws: string): Promise<string[]> {
    const present = await Promise.all(
      TURNS.map((t) =>
        readFile(turnFile(ws, t, 'done.json')).then(
          () => t,
          () => null,
        ),
      ),
    );
    return present.filter((t): t is string => t !== null);
  }

  it('a restart mid-queue never answers a finished turn twice and finishes the rest in seq order', async () => {
    // The delay keeps a turn in flight when we stop the agent; it is not a timing assertion.
    llm = await startMockLlm(['--delay-ms', '150']);
    const ws = join(dir, 'ws');
    // Written in reverse to prove order comes from seq, not from creation time.
    for (const [i, turn] of [...TURNS.entries()].reverse()) await writeInboxItem(ws, { seq: i + 1, content: `task ${turn}`, turn });
    const env = agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1` });
    agent = startAgent(env);
    const finishedBefore = await waitFor(async () => {
      const done = await doneTurns(ws);
      return done.length >= 2 ? done : undefined;
    }, 'two finished turns');
    expect(await stop(agent)).toBe(0);
    const finished = await doneTurns(ws);
    expect(finished.length).toBeGreaterThanOrEqual(finishedBefore.length);
    expect(finished).toEqual(TURNS.slice(0, finished.length));

    agent = startAgent(env);
    for (const turn of TURNS) await waitForDone(ws, turn, agent);
    const requests = await llm.requests();
    const asked = requests.map((r) => r.body.messages[1]?.content);
    for (const turn of finished) expect(asked.filter((c) => c === `task ${turn}`)).toHaveLength(1);
    // Order of first asks follows seq.
    const firstAsks = [...new Set(asked)];
    expect(firstAsks).toEqual(TURNS.map((t) => `task ${t}`));
    const state = JSON.parse(await readFile(join(ws, '.genswarms', 'agent-state.json'), 'utf8')) as unknown;
    expect(state).toEqual({ v: 1, processedThrough: 5 });
  });

  it('skips a turn whose done.json already exists (state lost) without asking the LLM', async () => {
    llm = await startMockLlm();
    const ws = join(dir, 'ws');
    await writeInboxItem(ws, { seq: 1, content: 'already answered', turn: 'old' });
    await writeFile(turnFile(ws, 'old', 'done.json'), '{"v":1,"turn":"old","status":"ok"}');
    await writeInboxItem(ws, { seq: 2, content: 'fresh task', turn: 'new' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1` }));
    await waitForDone(ws, 'new', agent);
    const asked = (await llm.requests()).map((r) => r.body.messages[1]?.content);
    expect(asked).toEqual(['fresh task']);
    await stop(agent);
    expect(agent.output()).toContain('turn old seq=1 from=_operator already done, skipped');
  });

  it('never answers an item whose turn the host cancelled (a host-made done.json is there when it starts)', async () => {
    llm = await startMockLlm();
    const ws = join(dir, 'ws');
    const cancelled = '{"v":1,"turn":"gone","status":"error","error":"cancelled by the orchestrator"}\n';
    await writeInboxItem(ws, { seq: 1, content: 'cancelled task', turn: 'gone' });
    await writeFile(turnFile(ws, 'gone', 'done.json'), cancelled);
    await writeInboxItem(ws, { seq: 2, content: 'next task', turn: 'next' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1` }));
    await waitForDone(ws, 'next', agent);
    expect((await llm.requests()).map((r) => r.body.messages[1]?.content)).toEqual(['next task']);
    expect(await readFile(turnFile(ws, 'gone', 'done.json'), 'utf8')).toBe(cancelled);
    await expect(readFile(turnFile(ws, 'gone', 'reply.md'))).rejects.toThrow();
    await stop(agent);
    expect(agent.output()).toContain('turn gone seq=1 from=_operator already done, skipped');
  });

  it('drops its answer when the host ends the turn while the model is answering: no reply.md, no outbox file', async () => {
    // The delay keeps the request in flight while the host writes its receipt; it is not a timing assertion.
    await writeFile(join(dir, 'script.json'), JSON.stringify([{ match: 'slow', response: 'late answer\n@critic: late line' }]));
    llm = await startMockLlm(['--delay-ms', '1500', '--script', join(dir, 'script.json')]);
    const ws = join(dir, 'ws');
    await writeInboxItem(ws, { seq: 1, content: 'slow task', turn: 'ended' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1` }));
    await waitFor(
      unlessFatal(
        async () => (await llm?.requests())?.length === 1,
        () => agent?.output() ?? '',
      ),
      () => `one LLM request; output:\n${agent?.output() ?? ''}`,
    );
    const hostReceipt = '{"v":1,"turn":"ended","status":"error","error":"cancelled by the orchestrator"}\n';
    await writeFile(turnFile(ws, 'ended', 'done.json'), hostReceipt);
    await waitFor(
      unlessFatal(
        async () => agent?.output().includes('turn ended seq=1 from=_operator ended by the host while answering; answer dropped'),
        () => agent?.output() ?? '',
      ),
      () => `the dropped-answer notice; output:\n${agent?.output() ?? ''}`,
    );
    expect(await readFile(turnFile(ws, 'ended', 'done.json'), 'utf8')).toBe(hostReceipt);
    await expect(readFile(turnFile(ws, 'ended', 'reply.md'))).rejects.toThrow();
    expect(await readdir(join(ws, '.outbox')).catch(() => [])).toEqual([]);
    const state = await waitFor(
      () => readFile(join(ws, '.genswarms', 'agent-state.json'), 'utf8').catch(() => undefined),
      'agent-state.json',
    );
    expect(JSON.parse(state)).toEqual({ v: 1, processedThrough: 1 });
  });

  it('picks up items that arrive while it runs', async () => {
    llm = await startMockLlm();
    const ws = join(dir, 'ws');
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm.url}/v1` }));
    await waitFor(async () => agent?.output().includes('started'), "the agent's started line");
    await writeInboxItem(ws, { seq: 1, content: 'late arrival', turn: 'late' });
    expect(await waitForDone(ws, 'late', agent)).toEqual({ v: 1, turn: 'late', status: 'ok' });
    expect(await readFile(turnFile(ws, 'late', 'reply.md'), 'utf8')).toBe('mock: late arrival');
  });
});

describe('genswarms-agent without an LLM endpoint', () => {
  let dir = '';
  let agent: RunningProcess | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-mode-'));
  });
  afterEach(async () => {
    await stop(agent);
    agent = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('writes an error receipt "no LLM endpoint configured" and no reply.md', async () => {
    const ws = join(dir, 'ws');
    await writeInboxItem(ws, { seq: 1, content: 'anything', turn: 'no-llm' });
    agent = startAgent(agentEnv(ws));
    expect(await waitForDone(ws, 'no-llm', agent)).toEqual({ v: 1, turn: 'no-llm', status: 'error', error: 'no LLM endpoint configured' });
    await expect(readFile(turnFile(ws, 'no-llm', 'reply.md'))).rejects.toThrow();
  });

  test.each([
    ['inline JSON', (_d: string, script: string) => script],
    ['a file path', (d: string) => join(d, 'script.json')],
  ])('answers from GENSWARMS_MOCK_SCRIPT given as %s, echoing when nothing matches', async (_name, pick) => {
    const script = JSON.stringify([
      { match: '/^sum (\\d+)$/', response: 'sum is {{content}}' },
      { match: 'hello', response: 'hi $& {{content}}' },
    ]);
    await writeFile(join(dir, 'script.json'), script);
    const ws = join(dir, 'ws');
    await writeInboxItem(ws, { seq: 1, content: 'sum 3', turn: 'm1' });
    await writeInboxItem(ws, { seq: 2, content: 'say hello', turn: 'm2' });
    await writeInboxItem(ws, { seq: 3, content: 'unmatched words', turn: 'm3' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_MOCK_SCRIPT: pick(dir, script), GENSWARMS_LLM_ENDPOINT: 'http://127.0.0.1:9/v1' }));
    await waitForDone(ws, 'm3', agent);
    expect(await readFile(turnFile(ws, 'm1', 'reply.md'), 'utf8')).toBe('sum is sum 3');
    expect(await readFile(turnFile(ws, 'm2', 'reply.md'), 'utf8')).toBe('hi $& say hello');
    expect(await readFile(turnFile(ws, 'm3', 'reply.md'), 'utf8')).toBe('unmatched words');
  });
});
