import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Admission, EgressMeter, RelayOutcome } from '@genswarms/egress';
import type { AgentConfig } from '@genswarms/ir-gate';
import { EventBus } from '../events/event-bus';
import { SqliteStore } from '../store/sqlite-store';
import type { Clock } from '../util/clock';
import { LlmMeter } from './llm-meter';
import type { MeterHost } from './llm-scopes';

class FakeClock implements Clock {
  t = Date.parse('2026-12-01T00:00:00Z');
  now(): Date {
    return new Date(this.t);
  }
  setTimer(): { cancel(): void } {
    return { cancel: () => undefined };
  }
}

const CALL = { method: 'POST', path: '/v1/chat/completions' };
const answered = (tokens: number | null, status = 200): RelayOutcome => ({
  status,
  durationMs: 3,
  bytesIn: 400,
  bytesOut: 800,
  usage: tokens === null ? null : { promptTokens: tokens - 1, completionTokens: 1, totalTokens: tokens, trusted: true },
  failure: null,
});

describe('LlmMeter (real store, fake clock)', () => {
  let home: string;
  let store: SqliteStore;
  let clock: FakeClock;
  let meter: LlmMeter;
  let agents: Record<string, Partial<AgentConfig>>;
  let options: Record<string, unknown>;
  const bases = new Set<string>();
  const host: MeterHost = {
    swarm: 's',
    agentConfig: (a) => (agents[a] === undefined ? undefined : ({ name: a, ...agents[a] } as AgentConfig)),
    swarmOptions: () => options,
    scaleBases: bases,
  };

  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-meter-')));
    store = SqliteStore.open(home);
    clock = new FakeClock();
    meter = new LlmMeter(store.llmUsage, clock, new EventBus(store, clock));
    agents = { a: {}, b: {} };
    options = {};
    bases.clear();
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** Admits (and settles with `tokens`) or reports the refusal. */
  function call(m: EgressMeter, tokens: number | null = 10): Admission {
    const a = m.admit(CALL);
    if (a.kind === 'admit') m.settle(a.ticket, answered(tokens));
    return a;
  }
  const kinds = (m: EgressMeter, n: number, tokens: number | null = 10): string[] =>
    Array.from({ length: n }, () => {
      const a = call(m, tokens);
      return a.kind === 'admit' ? 'ok' : a.type;
    });

  test('a windowed request budget refuses until the window rolls over, then admits again', () => {
    agents['a'] = { budget: { requests: 2, window: 'PT1M' } };
    const m = meter.forAgent(host, 'a');
    expect(kinds(m, 3)).toEqual(['ok', 'ok', 'budget_exhausted']);
    clock.t += 30_000;
    const refused = m.admit(CALL);
    expect(refused).toMatchObject({ kind: 'refuse', type: 'budget_exhausted', retryAfterS: 30 });
    clock.t += 30_000;
    expect(kinds(m, 3)).toEqual(['ok', 'ok', 'budget_exhausted']);
    expect(store.llmUsage.usage('s', 'a')).toMatchObject({ requests: 4, refused: 3 });
  });

  test('a lifetime token budget counts settled tokens; a refusal gives no Retry-After', () => {
    agents['a'] = { budget: { tokens: 25 } };
    const m = meter.forAgent(host, 'a');
    expect(kinds(m, 4)).toEqual(['ok', 'ok', 'ok', 'budget_exhausted']); // 10, 20, 30 ≥ 25
    expect(m.admit(CALL)).toEqual({ kind: 'refuse', type: 'budget_exhausted', message: "this agent's LLM tokens budget is exhausted" });
  });

  test('the swarm budget is shared by every agent', () => {
    options = { budget: { requests: 3 } };
    const [a, b] = [meter.forAgent(host, 'a'), meter.forAgent(host, 'b')];
    expect([...kinds(a, 2), ...kinds(b, 2), ...kinds(a, 1)]).toEqual(['ok', 'ok', 'ok', 'budget_exhausted', 'budget_exhausted']);
  });

  test('scaled instances share their base budget', () => {
    bases.add('w');
    agents = { w_1: { budget: { requests: 2 } }, w_2: { budget: { requests: 2 } } };
    expect([...kinds(meter.forAgent(host, 'w_1'), 1), ...kinds(meter.forAgent(host, 'w_2'), 2)]).toEqual(['ok', 'ok', 'budget_exhausted']);
  });

  test('raising the budget lets calls through and re-arms the exhaustion event', async () => {
    agents['a'] = { budget: { requests: 1 } };
    const m = meter.forAgent(host, 'a');
    expect(kinds(m, 2)).toEqual(['ok', 'budget_exhausted']);
    agents['a'] = { budget: { requests: 2 } };
    expect(kinds(m, 2)).toEqual(['ok', 'budget_exhausted']);
    await new Promise((r) => setTimeout(r, 20)); // the events are written asynchronously
    const events = await store.queryEvents({ swarm: 's', eventType: 'budget_exhausted', limit: 10 });
    expect(events).toHaveLength(2);
  });

  test('requests_per_minute spreads calls: a second of calls, then one per 60/rpm seconds', () => {
    agents['a'] = { rate_limit: { requests_per_minute: 120 } };
    const m = meter.forAgent(host, 'a');
    expect(kinds(m, 3)).toEqual(['ok', 'ok', 'rate_limited']);
    expect(m.admit(CALL)).toMatchObject({ kind: 'refuse', type: 'rate_limited', retryAfterS: 0.5 });
    clock.t += 500;
    expect(kinds(m, 2)).toEqual(['ok', 'rate_limited']);
  });

  test('tokens_per_minute admits while the bucket is above zero, a call may overdraw it', () => {
    agents['a'] = { rate_limit: { tokens_per_minute: 60 } };
    const m = meter.forAgent(host, 'a');
    expect(kinds(m, 2, 100)).toEqual(['ok', 'rate_limited']); // 60 - 100 = -40: 41 s to climb above zero
    const r = m.admit(CALL);
    expect(r.kind === 'refuse' ? Math.ceil(r.retryAfterS ?? 0) : 0).toBe(41);
    clock.t += 41_000;
    expect(kinds(m, 1)).toEqual(['ok']);
  });

  test.each<[string, RelayOutcome, Record<string, unknown>]>([
    ['reported', answered(15), { prompt_tokens: 14, completion_tokens: 1, total_tokens: 15, usage: 'reported' }],
    [
      'estimated for a 2xx without usage',
      answered(null),
      { prompt_tokens: 100, completion_tokens: 200, total_tokens: 300, usage: 'estimated' },
    ],
    ['none for an error without usage', answered(null, 500), { status: 500 }],
    [
      'untrusted',
      { ...answered(15), usage: { promptTokens: 10_000_000, completionTokens: 0, totalTokens: 10_000_000, trusted: false } },
      { total_tokens: 10_000_000, usage: 'untrusted' },
    ],
  ])('charges tokens %s', (_name, outcome, expected) => {
    const m = meter.forAgent(host, 'a');
    const a = m.admit(CALL);
    if (a.kind === 'admit') m.settle(a.ticket, outcome);
    const [entry] = store.llmUsage.listRequests('s', 'a', 1);
    expect(entry).toMatchObject(expected);
    if (expected['usage'] === undefined) expect(entry?.total_tokens).toBeUndefined();
  });

  test('a malformed request is recorded as refused by protocol, with its reason', () => {
    meter.forAgent(host, 'a').reject({ method: null, path: null, reason: 'content_length_and_transfer_encoding', status: 400 });
    expect(store.llmUsage.listRequests('s', 'a', 1)).toMatchObject([
      { method: '-', path: '-', status: 400, refused_by: 'protocol', failure: 'content_length_and_transfer_encoding' },
    ]);
    expect(store.llmUsage.usage('s', 'a')).toMatchObject({ requests: 0, refused: 1 });
  });
});
