/**
 * Throughput and the durability rule of docs/architecture.md ("The store"): a task is queued
 * together with its `task_sent` event in one transaction. When the event cannot be stored the task is not
 * queued either and the caller gets the error (never an error for a task that will run anyway, which a
 * retry would then duplicate); when it is stored, both are there before sendTask answers.
 */
import { SqliteStore } from '../src/lib/store/sqlite-store';
import type { EnqueueResult, EventAlong, Store } from '../src/lib/store/store';
import { eventsOf, makeHarness, mockAgent, waitFor, type Harness } from './harness';

/** The real store; while `spoil` is set, the event along an enqueue is one the database refuses (a NOT NULL column null). */
function spoilingStore(real: Store): { store: Store; spoil: { on: boolean } } {
  const spoil = { on: false };
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop === 'enqueue') {
        return (input: Parameters<Store['enqueue']>[0], along?: EventAlong<EnqueueResult>) => {
          if (!spoil.on || along === undefined) return target.enqueue(input, along);
          const bad = {
            stored: null,
            make: (r: EnqueueResult) => ({ ...along.make(r), event_type: null }),
          } as unknown as EventAlong<EnqueueResult>;
          return target.enqueue(input, bad);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, spoil };
}

describe('sendTask: the task and its task_sent are one transaction', () => {
  let h: Harness;
  let spoil: { on: boolean };

  beforeEach(async () => {
    h = await makeHarness({
      store: (home) => {
        const s = spoilingStore(SqliteStore.open(home));
        spoil = s.spoil;
        return s.store;
      },
    });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a', ['re: {{content}}'])] } });
    await waitFor(async () => (await h.engine.getAgent('s', 'a')).state === 'idle', 'a idle');
  });
  afterEach(() => h.cleanup());

  it('an event that cannot be stored leaves no task queued and no turn; the next task runs once', async () => {
    spoil.on = true;
    // the rejection's text: SQLite's error comes from the native addon, outside the test's realm (no toThrow)
    const refused = await h.engine.sendTask('s', 'a', 'lost').then(
      () => '',
      (e: unknown) => String(e),
    );
    expect(refused).toMatch(/NOT NULL/);
    expect(await h.engine.store.listInbox('s', 'a')).toEqual([]);
    expect((await h.engine.listTurns('s', 'a')).turns).toEqual([]);
    expect((await eventsOf(h.engine, 's')).filter((e) => e.event_type === 'task_sent')).toEqual([]);

    spoil.on = false;
    const sent = await h.engine.sendTask('s', 'a', 'kept');
    const events = await eventsOf(h.engine, 's');
    expect(events.filter((e) => e.event_type === 'task_sent').map((e) => e.metadata['item_id'])).toEqual([sent.id]);
    await waitFor(async () => (await h.engine.listTurns('s', 'a')).turns.some((t) => t.status === 'completed'), 'the task runs');
    expect((await h.engine.listTurns('s', 'a')).turns.map((t) => [t.status, t.reply_preview])).toEqual([['completed', 're: kept']]);
  });
});
