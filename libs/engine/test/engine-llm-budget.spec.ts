/**
 * Budgets, rate limits, usage and the audit trail with a real bwrap agent (`network: isolated`) calling a real
 * LLM mock through the metering relay: the refused calls never reach the mock, usage and audit agree, tokens
 * are read from every wire shape, a rate limit spreads calls, a PATCH raises a budget, a restart keeps counts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startUsageLlm, type UsageLlm } from '@genswarms/tools';
import { EngineError } from '../src/lib/errors/engine-error';
import { eventsOf, makeHarness, waitEvent, waitFor, type Harness } from './harness';
import { LLM_CALLER_AGENT, type CallResult } from './fixtures/llm-caller-agent';

const haveBinary = (name: string): boolean => ['/usr/local/bin', '/usr/bin', '/bin'].some((d) => fs.existsSync(path.join(d, name)));
const ready = haveBinary('bwrap') && haveBinary('socat');
const suite = ready ? describe : describe.skip;
if (!ready) console.warn('SKIPPED engine-llm-budget: bubblewrap or socat is not installed');

const CHAT = '/chat/completions';

suite('LLM budgets at the egress (real bwrap agent, real relay, usage mock)', () => {
  let llm: UsageLlm;
  let entryDir = '';
  let h: Harness | undefined;
  let batches = 0;

  beforeAll(async () => {
    llm = await startUsageLlm();
    entryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-llm-entry-'));
    fs.chmodSync(entryDir, 0o755); // the sandbox mounts it read-only for the agent uid
    fs.writeFileSync(path.join(entryDir, 'llm-caller.js'), LLM_CALLER_AGENT, { mode: 0o644 });
  });
  afterAll(async () => {
    await llm.close();
    fs.rmSync(entryDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    llm.requests.length = 0;
    batches = 0;
    h = await makeHarness({ agentEntry: path.join(entryDir, 'llm-caller.js'), llmEndpoint: `${llm.url}/v1` });
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  const agent = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name: 'a',
    backend: 'bwrap',
    network: 'isolated',
    ...extra,
  });

  /** Drops the next batch into the agent's workspace and waits for its results. */
  async function run(calls: Array<{ path: string; stream?: boolean }>, retry = false): Promise<CallResult[]> {
    const n = ++batches;
    const ws = path.join(h!.home, 'workspaces', 's', 'a');
    await waitFor(async () => fs.existsSync(ws), 'workspace');
    fs.writeFileSync(path.join(ws, `batch-${n}.json`), JSON.stringify({ calls, retry }), { mode: 0o644 });
    const out = path.join(ws, `result-${n}.json`);
    await waitFor(async () => fs.existsSync(out), `result-${n}.json`, { timeoutMs: 30000 });
    return JSON.parse(fs.readFileSync(out, 'utf8')) as CallResult[];
  }

  const chat = (n: number): Array<{ path: string }> => Array.from({ length: n }, () => ({ path: CHAT }));

  it('answers three calls, then 429s that never reach the mock; llm_usage and the audit trail match', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [agent({ budget: { requests: 3 } })] } });
    await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started');
    const results = await run(chat(5));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(JSON.parse(results[3]?.body ?? '{}')).toMatchObject({ error: { type: 'budget_exhausted', code: 'budget_exhausted' } });
    expect(llm.requests).toHaveLength(3);
    const usage = { requests: 3, refused: 2, prompt_tokens: 30, completion_tokens: 15, total_tokens: 45 };
    expect((await engine.getAgent('s', 'a')).llm_usage).toEqual(usage);
    expect((await engine.getSwarm('s')).llm_usage).toEqual(usage);
    const { requests, next_before } = await engine.listLlmRequests('s', 'a', { limit: 100 });
    expect(next_before).toBeNull();
    expect(requests.map((r) => [r.status, r.refused_by ?? null, r.total_tokens ?? null])).toEqual([
      [429, 'budget', null],
      [429, 'budget', null],
      [200, null, 15],
      [200, null, 15],
      [200, null, 15],
    ]);
    expect(requests[2]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      prompt_tokens: 10,
      completion_tokens: 5,
      usage: 'reported',
    });
    expect(JSON.stringify(requests)).not.toMatch(/hi|answer|authorization/i); // no prompt, completion or header
    const exhausted = (await eventsOf(engine, 's')).filter((e) => e.event_type === 'budget_exhausted');
    expect(exhausted).toHaveLength(1);
    expect(exhausted[0]).toMatchObject({ agent: 'a', level: 'warning', metadata: { scope: 'agent', limit: 'requests', budget: 3 } });
    const page = await engine.listLlmRequests('s', 'a', { limit: 2 });
    expect(page.requests).toHaveLength(2);
    const older = await engine.listLlmRequests('s', 'a', { limit: 10, before: page.next_before ?? 0 });
    expect(older.requests.map((r) => r.id)).toEqual(requests.slice(2).map((r) => r.id));
  });

  it('counts tokens from JSON and SSE answers in the OpenAI chat, OpenAI responses and Anthropic shapes', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [agent({ budget: { tokens: 1000 } })] } });
    const calls = ['/chat/completions', '/responses', '/messages'].flatMap((p) => [{ path: p }, { path: p, stream: true }]);
    const results = await run(calls);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results[1]?.body).toContain('data: ');
    expect(llm.requests.map((r) => [r.protocol, r.stream])).toEqual([
      ['chat', false],
      ['chat', true],
      ['responses', false],
      ['responses', true],
      ['messages', false],
      ['messages', true],
    ]);
    expect((await engine.getAgent('s', 'a')).llm_usage).toEqual({
      requests: 6,
      refused: 0,
      prompt_tokens: 60,
      completion_tokens: 30,
      total_tokens: 90,
    });
    const { requests } = await engine.listLlmRequests('s', 'a', { limit: 10 });
    for (const r of requests)
      expect(r).toMatchObject({ status: 200, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, usage: 'reported' });
  });

  it('spreads calls under a rate limit: refused with Retry-After, retried, each a second apart at the mock', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [agent({ rate_limit: { requests_per_minute: 60 } })] } });
    const results = await run(chat(3), true);
    const answered = results.filter((r) => r.status === 200);
    expect(answered).toHaveLength(3);
    expect(results.filter((r) => r.status === 429).every((r) => r.retryAfter === 1)).toBe(true);
    expect(results.length).toBeGreaterThan(3);
    const gaps = answered.slice(1).map((r, i) => r.at - (answered[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(900);
    expect(llm.requests).toHaveLength(3);
    const limited = (await eventsOf(engine, 's')).filter((e) => e.event_type === 'rate_limited');
    expect(limited).toHaveLength(1); // coalesced
    expect(limited[0]).toMatchObject({ level: 'warning', metadata: { scope: 'agent', requests_per_minute: 60 } });
  });

  it('a PATCH raises the budget and calls flow again; the overlay records it', async () => {
    const engine = h!.engine;
    await engine.startSwarm({ config: { name: 's', agents: [agent({ budget: { requests: 2 } })] } });
    expect((await run(chat(3))).map((r) => r.status)).toEqual([200, 200, 429]);
    expect(await engine.patchAgentBudget('s', 'a', { budget: { requests: 4 } })).toEqual({
      status: 'updated',
      swarm: 's',
      agents: ['a'],
      budget: { requests: 4 },
      rate_limit: null,
    });
    expect((await run(chat(3))).map((r) => r.status)).toEqual([200, 200, 429]);
    expect(llm.requests).toHaveLength(4);
    expect((await engine.getOverlay('s')).events).toMatchObject([
      { op: 'update_config', payload: { target: 'a', config: { budget: { requests: 4 } } } },
    ]);
    expect((await eventsOf(engine, 's')).filter((e) => e.event_type === 'budget_exhausted')).toHaveLength(2); // once per exhaustion
    await engine.patchSwarmBudget('s', { budget: { requests: 5 } });
    expect((await run(chat(1))).map((r) => r.status)).toEqual([429]); // the agent's own limit still holds
    const snapshot = JSON.stringify((await engine.snapshot('s')).document);
    expect(snapshot).toContain('"budget":{"requests":4}');
    expect(snapshot).toContain('"options":{"budget":{"requests":5}}');
  });

  it('keeps the counts across a server restart: neither reset nor counted twice', async () => {
    await h!.engine.startSwarm({ config: { name: 's', agents: [agent({ budget: { requests: 3 } })] } });
    expect((await run(chat(2))).map((r) => r.status)).toEqual([200, 200]);
    await h!.engine.detach(); // the bwrap agent and its forwarder stop; the swarm stays running in the store
    h!.engine = await h!.open();
    const engine = h!.engine;
    expect((await engine.getAgent('s', 'a')).llm_usage).toMatchObject({ requests: 2, refused: 0, total_tokens: 30 });
    await waitEvent(engine, 's', (e) => e.event_type === 'egress_started', 'egress_started after recovery');
    expect((await run(chat(2))).map((r) => r.status)).toEqual([200, 429]);
    expect((await engine.getAgent('s', 'a')).llm_usage).toMatchObject({ requests: 3, refused: 1 });
    expect(llm.requests).toHaveLength(3);
  });

  it('refuses a budget on an agent that can reach its LLM past the relay, at start and at add_agent, creating nothing', async () => {
    const engine = h!.engine;
    await expect(
      engine.startSwarm({ config: { name: 's', agents: [agent({ network: 'open', budget: { requests: 1 } })] } }),
    ).rejects.toMatchObject({
      code: 'budget_unenforceable',
      status: 400,
      details: { agent: 'a', scope: 'agent', backend: 'bwrap', network: 'open' },
    });
    expect(fs.existsSync(path.join(h!.home, 'workspaces', 's'))).toBe(false);
    expect(fs.existsSync(path.join(h!.home, 'egress', 's'))).toBe(false);
  });
});

describe('budget_unenforceable on a running swarm (mock backend)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('refuses add_agent and PATCH that would put a limit on an unmetered agent', async () => {
    await h.engine.startSwarm({ config: { name: 's', agents: [{ name: 'm', backend: { type: 'mock', opts: { replies: ['x'] } } }] } });
    const err = await h.engine.addAgent('s', { name: 'l', backend: 'local', budget: { requests: 1 } } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'budget_unenforceable', details: { agent: 'l' } });
    await h.engine.addAgent('s', { name: 'l', backend: 'local' } as never).catch(() => undefined);
    await expect(h.engine.patchSwarmBudget('s', { rate_limit: { requests_per_minute: 5 } })).rejects.toMatchObject({
      code: 'budget_unenforceable',
      details: { agent: 'l', scope: 'swarm' },
    });
    expect((await h.engine.getOverlay('s')).events.some((e) => JSON.stringify(e).includes('rate_limit'))).toBe(false);
    await expect(h.engine.patchAgentBudget('s', 'm', { budget: { requests: 0 } })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
