/**
 * A store failure inside a turn is never silent: the turn fails with a reason (`engine_error`), one
 * `engine_error` event (level error, `where`, `code`) and one log line report it, and the agent goes
 * back to idle and takes the next task. The store is the real SQLite store, wrapped so that one chosen
 * call throws once (a fake of the store port, no module mocking).
 */
import { SqliteStore } from '../src/lib/store/sqlite-store';
import type { Store } from '../src/lib/store/store';
import { eventsOf, makeHarness, mockAgent, waitEvent, waitFor, type Harness } from './harness';

type StoreMethod = { [K in keyof Store]: Store[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof Store];

/** The real store; `failOnce(m)` makes the next call of `m` reject with an SQLite-like error. */
function flakyStore(real: Store): { store: Store; failOnce(method: StoreMethod): void } {
  let armed: StoreMethod | null = null;
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === armed) {
        armed = null;
        return () => Promise.reject(Object.assign(new Error('disk I/O error (injected)'), { code: 'SQLITE_IOERR' }));
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store,
    failOnce: (method) => {
      armed = method;
    },
  };
}

describe('a store failure mid-turn', () => {
  let h: Harness;
  let flaky: ReturnType<typeof flakyStore>;
  const logged: Record<string, unknown>[] = [];

  beforeEach(async () => {
    logged.length = 0;
    h = await makeHarness({
      store: (home) => (flaky = flakyStore(SqliteStore.open(home))).store,
      log: { error: (message, meta) => logged.push({ message, ...meta }) },
    });
  });
  afterEach(() => h.cleanup());

  test.each([
    ['markTurnDelivered', 'after the delivery'],
    ['finishTurn', 'at the receipt'],
  ] as const)('%s throwing (%s) fails the turn, reports engine_error, and the agent takes the next task', async (method, _when) => {
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a', ['re: {{content}}'])] } });
    await waitFor(async () => (await h.engine.getAgent('s', 'a')).state === 'idle', 'a idle');
    flaky.failOnce(method);
    await h.engine.sendTask('s', 'a', 'one');

    const reported = await waitEvent(h.engine, 's', (e) => e.event_type === 'engine_error', 'engine_error');
    expect(reported).toMatchObject({ level: 'error', category: 'system', agent: 'a', metadata: { where: 'turn', code: 'sqlite_ioerr' } });
    const failed = await waitEvent(h.engine, 's', (e) => e.event_type === 'turn_failed', 'turn_failed');
    expect(failed.metadata).toMatchObject({ error: 'engine_error' });
    expect(logged).toContainEqual(
      expect.objectContaining({ message: 'engine_error', where: 'turn', code: 'sqlite_ioerr', swarm: 's', agent: 'a' }),
    );

    await waitFor(async () => (await h.engine.getAgent('s', 'a')).state === 'idle', 'a idle again');
    await h.engine.sendTask('s', 'a', 'two');
    await waitFor(async () => (await h.engine.listTurns('s', 'a')).turns.find((t) => t.status === 'completed'), 'the next turn completes');
    const turns = (await h.engine.listTurns('s', 'a')).turns.map((t) => [t.status, t.error ?? null, t.reply_preview]);
    expect(turns).toEqual([
      ['completed', null, 're: two'],
      ['error', 'engine_error', null],
    ]);
    expect((await eventsOf(h.engine, 's')).filter((e) => e.event_type === 'engine_error')).toHaveLength(1);
  });

  it('dispatchNext throwing is reported once, the agent stays idle, and the queued task runs on the retry', async () => {
    await h.engine.startSwarm({ config: { name: 'd', agents: [mockAgent('a', ['re: {{content}}'])] } });
    await waitFor(async () => (await h.engine.getAgent('d', 'a')).state === 'idle', 'a idle');
    flaky.failOnce('dispatchNext');
    await h.engine.sendTask('d', 'a', 'queued');

    const reported = await waitEvent(h.engine, 'd', (e) => e.event_type === 'engine_error', 'engine_error');
    expect(reported).toMatchObject({ level: 'error', agent: 'a', metadata: { where: 'dispatch', code: 'sqlite_ioerr' } });
    await waitFor(async () => (await h.engine.listTurns('d', 'a')).turns.find((t) => t.status === 'completed'), 'the queued task runs');
    expect((await h.engine.listTurns('d', 'a')).turns.map((t) => [t.status, t.reply_preview])).toEqual([['completed', 're: queued']]);
  });
});
