import {
  ageOf,
  clientScreenFacts,
  countByState,
  describeIsolation,
  describeLlmCalls,
  describeLlmTokens,
  detectFormat,
} from '../src/lib/format';
import { hrefOf, parseRoute } from '../src/lib/router';
import { filterEvents, SwarmModel } from '../src/lib/swarm-model';
import type { AgentStatus, EventRow, SwarmDetail } from '../src/lib/types';
import { visibleRows } from '../src/lib/virtual-rows';

const agent = (name: string, state = 'idle'): AgentStatus => ({
  name,
  swarm: 's',
  state,
  awaiting: false,
  turn_started_at: null,
  failure: null,
  isolation: null,
  backend: 'mock',
  client: 'genswarms-agent',
  network: 'open',
  inbox_size: 0,
  turn: null,
  needs_attention: null,
  started_at: null,
  last_activity: null,
});

describe('visibleRows keeps only the viewport (plus overscan) of 1,000 agents in the DOM', () => {
  test.each([
    [0, 480, 32, 1000, { start: 0, end: 23, before: 0, after: (1000 - 23) * 32 }],
    [3200, 480, 32, 1000, { start: 92, end: 123, before: 92 * 32, after: (1000 - 123) * 32 }],
    [1e9, 480, 32, 1000, { start: 1000, end: 1000, before: 1000 * 32, after: 0 }],
    [-50, 480, 32, 10, { start: 0, end: 10, before: 0, after: 0 }],
    [0, 480, 32, 0, { start: 0, end: 0, before: 0, after: 0 }],
  ])('scrollTop %d, viewport %d, row %d, %d rows', (top, vp, row, count, expected) => {
    expect(visibleRows(top, vp, row, count)).toEqual(expected);
  });
});

describe('LLM usage cells', () => {
  const u = (requests: number, refused: number, prompt: number, completion: number) => ({
    requests,
    refused,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  });
  test.each([
    [undefined, '—', '—'],
    [null, '—', '—'],
    [u(0, 0, 0, 0), '—', '—'],
    [u(1, 0, 10, 5), '1 call', '15 (10 in / 5 out)'],
    [u(3, 2, 30000, 1500), '3 calls, 2 refused', '31,500 (30,000 in / 1,500 out)'],
    [u(0, 4, 0, 0), '0 calls, 4 refused', '—'],
  ])('%j → %s, %s', (usage, calls, tokens) => {
    expect(describeLlmCalls(usage)).toBe(calls);
    expect(describeLlmTokens(usage)).toBe(tokens);
  });
});

describe('routes', () => {
  test.each([
    ['#/login', { page: 'login' }],
    ['#/', { page: 'swarms' }],
    ['', { page: 'swarms' }],
    ['#/swarms/demo', { page: 'swarm', swarm: 'demo' }],
    ['#/swarms/demo/agents/a_1', { page: 'agent', swarm: 'demo', agent: 'a_1' }],
    ['#/swarms/..', { page: 'swarms' }],
    ['#/swarms/%2e%2e/agents/x', { page: 'swarms' }],
    ['#/swarms/__proto__', { page: 'swarms' }],
    ['#/swarms/a/agents/<script>', { page: 'swarms' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('round-trips every page', () => {
    for (const hash of ['#/login', '#/', '#/swarms/s', '#/swarms/s/agents/a']) expect(hrefOf(parseRoute(hash))).toBe(hash);
  });
});

describe('format', () => {
  test.each([
    [null, '—'],
    ['not a date', '—'],
    ['2026-01-01T00:00:00.000Z', '0s'],
    ['2025-12-31T23:59:15.000Z', '45s'],
    ['2025-12-31T23:00:00.000Z', '1h'],
    ['2025-12-29T00:00:00.000Z', '3d'],
  ])('ageOf(%s)', (iso, out) => {
    expect(ageOf(iso, Date.parse('2026-01-01T00:00:00.000Z'))).toBe(out);
  });

  test.each([
    ['{"name":"x"}', undefined, 'json'],
    ['name: x', undefined, 'yaml'],
    ['name: x', 'swarm.JSON', 'json'],
    ['{}', 'swarm.yml', 'yaml'],
  ])('detectFormat(%j, %s)', (text, file, format) => {
    expect(detectFormat(text, file)).toBe(format);
  });

  it('counts agents by state and describes any isolation shape', () => {
    expect(countByState([agent('a'), agent('b', 'busy'), agent('c')])).toEqual([
      ['busy', 1],
      ['idle', 2],
    ]);
    expect(describeIsolation(undefined)).toBe('—');
    expect(describeIsolation('bwrap')).toBe('bwrap');
    expect(describeIsolation({ runner: 'bwrap', limits: { pids: 64 } })).toBe('runner: bwrap, limits: {"pids":64}');
    const report = { network: 'loopback', namespaces: ['user', 'pid', 'net'], no_new_privs: true, seccomp: 'filter', bypass_flags: [] };
    expect(describeIsolation(report)).toBe('net loopback · ns user,pid,net · no_new_privs · seccomp filter');
    expect(describeIsolation({ network: 'host', namespaces: [], no_new_privs: false, seccomp: 'disabled', bypass_flags: ['--yolo'] })).toBe(
      'net host · ns none · seccomp disabled · bypass --yolo',
    );
    expect(describeIsolation({ ...report, uid: 200001 })).toBe(
      'uid 200001 · net loopback · ns user,pid,net · no_new_privs · seccomp filter',
    );
  });
});

describe('SwarmModel applies pushes without a reload', () => {
  const detail: SwarmDetail = {
    name: 's',
    status: 'running',
    started_at: null,
    agent_count: 2,
    object_count: 0,
    agents: [agent('a'), agent('b')],
    objects: [],
    topology: [],
  };
  const now = '2026-01-01T00:00:00.000Z';

  it('tracks state, attention, turns, topology and membership', () => {
    const m = new SwarmModel();
    m.load(detail);
    m.apply('agent_status', { agent: 'a', state: 'busy', previous: 'idle' }, now);
    expect(m.agents.get('a')?.state).toBe('busy');
    expect(m.stale).toBe(true);
    m.apply('needs_attention', { agent: 'b', turn: 't1', reason: 'turn_timeout' }, now);
    expect(m.agents.get('b')?.needs_attention).toEqual({ reason: 'turn_timeout', turn: 't1' });
    m.apply('agent_status', { agent: 'b', state: 'idle', previous: 'needs_attention' }, now);
    expect(m.agents.get('b')?.needs_attention).toBeNull();
    m.apply('turn_completed', { agent: 'a', turn: 't2', status: 'completed', reply_preview: 'x' }, now);
    expect(m.agents.get('a')?.turn).toBeNull();
    m.apply('topology_changed', { topology: [{ from: 'a', targets: ['b'] }] }, now);
    expect(m.topology).toEqual([{ from: 'a', targets: ['b'] }]);
    m.apply('agent_removed', { name: 'b' }, now);
    expect(m.sortedAgents().map((x) => x.name)).toEqual(['a']);
    m.apply('swarm_stopped', { swarm: 's' }, now);
    expect(m.status).toBe('stopped');
  });

  it('stays stale when an agent is added while a re-read is in flight (the read predates it)', () => {
    const m = new SwarmModel();
    m.load(detail);
    m.apply('agent_added', { name: 'c', spec: {} }, now);
    const marks = m.staleMarks; // the read is sent now …
    m.apply('agent_added', { name: 'd', spec: {} }, now); // … and d is added before it answers
    m.loadAgents([agent('a'), agent('b'), agent('c')], marks);
    expect(m.stale).toBe(true);
    m.loadAgents([agent('a'), agent('b'), agent('c'), agent('d')]);
    expect(m.stale).toBe(false);
    m.apply('agent_status', { agent: 'e', state: 'idle', previous: 'starting' }, now); // a row the page never read
    expect(m.stale).toBe(true);
  });

  it('changes no row for pushes about unknown agents and keys like __proto__', () => {
    const m = new SwarmModel();
    m.load(detail);
    m.apply('agent_status', { agent: '__proto__', state: 'busy' }, now);
    m.apply('agent_status', { agent: 'zzz', state: 'busy' }, now);
    expect(m.sortedAgents().map((x) => x.state)).toEqual(['idle', 'idle']);
    expect(({} as Record<string, unknown>)['state']).toBeUndefined();
  });

  it('keeps events once each, in id order, bounded', () => {
    const m = new SwarmModel();
    const ev = (id: number, level: EventRow['level'] = 'info', agentName: string | null = 'a'): EventRow => ({
      id,
      timestamp: now,
      level,
      category: 'agent',
      swarm: 's',
      agent: agentName,
      event_type: 'x',
      message: 'm',
      metadata: {},
    });
    m.addEvents([ev(1), ev(2)]);
    m.apply('event', ev(2) as unknown as Record<string, unknown>, now);
    m.apply('event', ev(3, 'error', 'b') as unknown as Record<string, unknown>, now);
    expect(m.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(filterEvents(m.events, { level: 'error', category: '', agent: '' }, 10).map((e) => e.id)).toEqual([3]);
    expect(filterEvents(m.events, { level: '', category: 'agent', agent: 'a' }, 10).map((e) => e.id)).toEqual([2, 1]);
    m.addEvents(Array.from({ length: 2000 }, (_, i) => ev(10 + i)));
    expect(m.events.length).toBe(1000);
  });
});

describe('clientScreenFacts: what a stuck TUI client showed', () => {
  const held = (details: unknown): unknown => ({ reason: 'client_prompt_blocked', turn: null, details });
  test.each<[string, unknown, unknown, ReturnType<typeof clientScreenFacts>]>([
    [
      'a dialog',
      held({ dialog: 'codex_sign_in', stage: 'not_ready', last_lines: ['Sign in with ChatGPT'] }),
      null,
      {
        title: 'The client shows a dialog (codex_sign_in): answer it in its pane (genswarms attach --write), then resume.',
        lines: ['Sign in with ChatGPT'],
      },
    ],
    [
      'no ready prompt',
      held({ stage: 'not_ready', last_lines: [] }),
      null,
      { title: 'The client never showed its ready prompt.', lines: [] },
    ],
    [
      'a paste not taken',
      held({ stage: 'enter_not_taken' }),
      null,
      { title: 'The client did not take the pasted turn (enter_not_taken).', lines: [] },
    ],
    [
      'a dead client',
      null,
      { code: 'process_exited', details: { last_lines: ['bye', 3, null] } },
      { title: 'The last screen of its client:', lines: ['bye'] },
    ],
    ['another attention reason', { reason: 'receipt_symlink', turn: 't' }, null, null],
    ['hostile shapes', { details: 'x' }, { details: ['__proto__'] }, null],
  ])('%s', (_label, attention, failure, expected) => {
    expect(clientScreenFacts(attention, failure)).toEqual(expected);
  });
});
