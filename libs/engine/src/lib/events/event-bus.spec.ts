import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '../errors/engine-error';
import { SqliteStore } from '../store/sqlite-store';
import type { StoredEvent } from '../store/store';
import { SYSTEM_CLOCK } from '../util/clock';
import { EventBus, toLogEntry } from './event-bus';
import { matchesAnyFilter, parseEventFilters, parseEventQuery } from './event-query';
import { EVENT_CATEGORIES, levelForEventType } from './event-types';

describe('levelForEventType', () => {
  test.each([
    ['agent_failed', 'error'],
    ['turn_failed', 'error'],
    ['object_error', 'error'],
    ['egress_failed', 'error'],
    ['runner_error', 'error'],
    ['invalid_route', 'warning'],
    ['target_not_found', 'warning'],
    ['inbox_full', 'warning'],
    ['auth_denied', 'warning'],
    ['receipt_rejected', 'warning'],
    ['turn_timeout', 'warning'],
    ['agent_needs_attention', 'warning'],
    ['api_key_withheld', 'warning'],
    ['inbox_dropped', 'warning'],
    ['unsafe_bypass_enabled', 'warning'],
    ['ssh_host_key_unverified', 'warning'],
    ['network_unfiltered', 'warning'],
    ['receipt_push_lost', 'warning'],
    ['outbox_rejected', 'warning'],
    ['budget_exhausted', 'warning'],
    ['rate_limited', 'warning'],
    ['swarm_started', 'info'],
    ['message_routed', 'info'],
    ['auto_deliver_failed', 'error'],
    ['swarm_start_failed', 'error'],
    ['engine_error', 'error'],
  ])('%s → %s', (type, level) => {
    expect(levelForEventType(type)).toBe(level);
  });

  it('puts every documented type in one category', () => {
    expect(Object.keys(EVENT_CATEGORIES)).toHaveLength(54);
  });
});

describe('parseEventQuery', () => {
  it('defaults limit to 100 and accepts every documented param', () => {
    expect(parseEventQuery({})).toEqual({ limit: 100 });
    expect(
      parseEventQuery({
        level: 'error',
        category: 'routing',
        swarm: 's-1',
        agent: 'a_b',
        event_type: 'turn_failed',
        minutes: '5',
        limit: '1000',
        since_id: '0',
      }),
    ).toEqual({
      level: 'error',
      category: 'routing',
      swarm: 's-1',
      agent: 'a_b',
      event_type: 'turn_failed',
      minutes: 5,
      limit: 1000,
      since_id: 0,
    });
  });

  test.each([
    ['level', { level: 'fatal' }],
    ['category', { category: 'nope' }],
    ['swarm', { swarm: '../x' }],
    ['agent', { agent: '1abc' }],
    ['event_type', { event_type: 'Bad-Type' }],
    ['minutes', { minutes: '0' }],
    ['minutes', { minutes: '525601' }],
    ['limit', { limit: '1001' }],
    ['limit', { limit: '1.5' }],
    ['limit', { limit: '-1' }],
    ['limit', { limit: ['1', '2'] }],
    ['since_id', { since_id: 'abc' }],
    ['since_id', { since_id: '1e3' }],
  ])('rejects a bad %s with invalid_query naming the param', (param, input) => {
    let caught: unknown;
    try {
      parseEventQuery(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EngineError);
    expect((caught as EngineError).code).toBe('invalid_query');
    expect((caught as EngineError).details).toEqual({ param });
    expect((caught as EngineError).status).toBe(400);
  });
});

describe('filter sets', () => {
  const ev = {
    id: 1,
    timestamp: '',
    level: 'warning',
    category: 'routing',
    swarm: 's',
    agent: 'a',
    event_type: 'invalid_route',
    message: '',
    metadata: {},
  } as StoredEvent;
  it('matches when every key of any set equals the event field', () => {
    expect(matchesAnyFilter(ev, [{}])).toBe(true);
    expect(matchesAnyFilter(ev, [{ level: 'error' }, { agent: 'a', category: 'routing' }])).toBe(true);
    expect(matchesAnyFilter(ev, [{ level: 'error' }, { agent: 'b' }])).toBe(false);
    expect(matchesAnyFilter(ev, [])).toBe(false);
  });
  it('refuses unknown filter keys and bad values', () => {
    expect(() => parseEventFilters({ swarm: 's' })).toThrow(EngineError);
    expect(() => parseEventFilters({ level: 'loud' })).toThrow(EngineError);
    expect(parseEventFilters(undefined)).toEqual({});
  });
});

describe('EventBus', () => {
  let home: string;
  let store: SqliteStore;
  let bus: EventBus;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-ev-'));
    store = SqliteStore.open(home);
    bus = new EventBus(store, SYSTEM_CLOCK);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('persists, pushes once per subscriber, and redacts metadata', async () => {
    const seen: StoredEvent[] = [];
    const off = bus.subscribe((e) => seen.push(e));
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    const long = 'x'.repeat(300);
    const e = await bus.emit({
      type: 'message_routed',
      swarm: 's',
      agent: 'a',
      message: 'Routed.',
      metadata: { content_preview: long, content: long, api_key: 'sk-secret', nested: { token: 'tok' }, to: 'b' },
    });
    off();
    await bus.emit({ type: 'swarm_started', swarm: 's', agent: null, message: 'Started.', level: 'warning' });
    expect(seen).toHaveLength(1);
    expect(e.metadata['content_preview']).toHaveLength(100);
    expect(JSON.stringify(e)).not.toMatch(/sk-secret|tok"|x{101}/);
    const { events } = await bus.query({});
    expect(events.map((x) => [x.event_type, x.level, x.category])).toEqual([
      ['swarm_started', 'warning', 'swarm'],
      ['message_routed', 'info', 'routing'],
    ]);
    expect(toLogEntry(e)).toEqual({
      id: e.id,
      timestamp: e.timestamp,
      level: 'info',
      agent: 'a',
      event_type: 'message_routed',
      message: 'Routed.',
      metadata: e.metadata,
    });
  });

  it('scoped queries fix swarm and agent', async () => {
    await bus.emit({ type: 'task_sent', swarm: 's', agent: 'a', message: 'm' });
    await bus.emit({ type: 'task_sent', swarm: 's', agent: 'b', message: 'm' });
    await bus.emit({ type: 'task_sent', swarm: 't', agent: 'a', message: 'm' });
    expect((await bus.query({ agent: 'b' }, { swarm: 's', agent: 'a' })).events).toHaveLength(1);
    expect((await bus.query({}, { swarm: 's' })).events).toHaveLength(2);
    expect((await bus.query({ since_id: '1' })).events.map((x) => x.id)).toEqual([2, 3]);
  });
});
