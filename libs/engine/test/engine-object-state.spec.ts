/**
 * Object state survives a server restart (recovery), a swarm restart and a stop/start; it is dropped with
 * the object, `restart --delete` and a purge. Unsaveable states (oversize, cycles, BigInt) are not kept
 * stale; hostile stored rows never crash a start nor reach a prototype.
 */
import { createHandlerRegistry } from '../src/lib/objects/builtins';
import type { ObjectHandler } from '../src/lib/objects/handler';
import { OBJECT_STATE_MAX_BYTES } from '../src/lib/objects/object-state';
import type { Engine } from '../src/lib/swarms/engine';
import { eventsOf, makeHarness, mockAgent, type Harness } from './harness';

/** Keeps whatever the message asks for: `big`, `cycle`, `bigint`, else counts. */
const shaper: ObjectHandler = {
  init: () => ({ n: 0 }),
  onMessage: (msg, state) => {
    const n = ((state as { n?: number }).n ?? 0) + 1;
    if (msg.content === 'big') return { state: { n, pad: 'x'.repeat(OBJECT_STATE_MAX_BYTES) } };
    if (msg.content === 'cycle') {
      const s: Record<string, unknown> = { n };
      s['self'] = s;
      return { state: s };
    }
    if (msg.content === 'bigint') return { state: { n, v: BigInt(1) } };
    return { state: { n } };
  },
};

function config(name: string): Record<string, unknown> {
  return {
    name,
    agents: [mockAgent('a')],
    objects: [
      { name: 'c', handler: 'counter' },
      { name: 'sh', handler: 'shaper' },
    ],
    topology: [
      ['a', 'c'],
      ['a', 'sh'],
    ],
  };
}

function stateOf(engine: Engine, swarm: string, object: string): unknown {
  return engine.swarms.get(swarm)?.object(object)?.state;
}

async function send(engine: Engine, swarm: string, to: string, content: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) await engine.sendMessage(swarm, { from: 'a', to, content });
}

describe('object state persistence', () => {
  let h: Harness;
  beforeEach(async () => {
    const handlers = createHandlerRegistry();
    handlers.register('shaper', shaper);
    h = await makeHarness({ handlers });
  });
  afterEach(() => h.cleanup());

  it('a counter at 3 counts 4 after the server stops (detach) and a new engine recovers the swarm', async () => {
    await h.engine.startSwarm({ config: config('os') });
    await send(h.engine, 'os', 'c', 'tick', 3);
    expect(stateOf(h.engine, 'os', 'c')).toEqual({ count: 3, step: 1 });
    await h.engine.detach();
    h.engine = await h.open();
    expect(stateOf(h.engine, 'os', 'c')).toEqual({ count: 3, step: 1 });
    await send(h.engine, 'os', 'c', 'tick');
    expect(stateOf(h.engine, 'os', 'c')).toEqual({ count: 4, step: 1 });
    const started = (await eventsOf(h.engine, 'os')).filter((e) => e.event_type === 'object_started' && e.agent === 'c');
    expect(started.map((e) => e.metadata['restored'])).toEqual([false, true]);
  });

  it('survives a crash (close) as well, and a restart and a stop then start', async () => {
    await h.engine.startSwarm({ config: config('ok') });
    await send(h.engine, 'ok', 'c', 'tick', 2);
    await h.engine.close();
    h.engine = await h.open();
    await h.engine.restartSwarm('ok');
    await h.engine.stopSwarm('ok');
    await h.engine.startSwarm({ config: config('ok') });
    await send(h.engine, 'ok', 'c', 'tick');
    expect(stateOf(h.engine, 'ok', 'c')).toEqual({ count: 3, step: 1 });
  });

  it('a config PATCH re-inits and the new state is what is restored', async () => {
    await h.engine.startSwarm({ config: config('pa') });
    await send(h.engine, 'pa', 'c', 'tick', 2);
    await h.engine.patchObjectConfig('pa', 'c', { config: { step: 5 } });
    await send(h.engine, 'pa', 'c', 'tick');
    await h.engine.detach();
    h.engine = await h.open();
    expect(stateOf(h.engine, 'pa', 'c')).toEqual({ count: 5, step: 5 });
  });

  test.each([
    [
      'purge',
      async (e: Engine): Promise<void> => {
        await e.stopSwarm('dr', { purge: true });
        await e.startSwarm({ config: config('dr') });
      },
    ],
    [
      'restart with delete',
      async (e: Engine): Promise<void> => {
        await e.restartSwarm('dr', { deleteData: true });
      },
    ],
    [
      'object removal then the same object added back',
      async (e: Engine): Promise<void> => {
        await e.removeObject('dr', 'c');
        await e.addObject('dr', { name: 'c', handler: 'counter', incoming: ['a'] });
      },
    ],
  ])('%s drops the saved state: the counter starts over', async (_what, drop) => {
    await h.engine.startSwarm({ config: config('dr') });
    await send(h.engine, 'dr', 'c', 'tick', 2);
    await drop(h.engine);
    expect(stateOf(h.engine, 'dr', 'c')).toEqual({ count: 0, step: 1 });
    await h.engine.detach();
    h.engine = await h.open();
    expect(stateOf(h.engine, 'dr', 'c')).toEqual({ count: 0, step: 1 });
  });

  test.each([
    ['larger than 1 MiB', 'big', 'object_state_too_large'],
    ['cyclic', 'cycle', 'object_state_not_serializable'],
    ['holding a BigInt', 'bigint', 'object_state_not_serializable'],
  ])('a state %s is not persisted: one warning, the object runs on, no stale state is restored', async (_what, content, reason) => {
    await h.engine.startSwarm({ config: config('un') });
    await send(h.engine, 'un', 'sh', 'n', 2);
    await send(h.engine, 'un', 'sh', content, 2);
    expect((stateOf(h.engine, 'un', 'sh') as { n: number }).n).toBe(4);
    const warnings = (await eventsOf(h.engine, 'un')).filter((e) => e.event_type === 'object_error' && e.agent === 'sh');
    expect(warnings.map((e) => [e.level, e.metadata['reason']])).toEqual([['warning', reason]]);
    expect(await h.engine.store.getObjectState('un', 'sh')).toBeNull();
    expect((await h.engine.listObjects('un')).objects.find((o) => o.name === 'sh')?.state).toBe('running');
    await h.engine.detach();
    h.engine = await h.open();
    expect(stateOf(h.engine, 'un', 'sh')).toEqual({ n: 0 });
  });

  test.each([
    ['not JSON', '{"count": 3,', null],
    ['empty', '', null],
    ['larger than 1 MiB', JSON.stringify({ count: 1, pad: 'x'.repeat(OBJECT_STATE_MAX_BYTES) }), null],
    ['__proto__ at the top', '{"__proto__":{"polluted":true},"count":7,"step":1}', { count: 7, step: 1 }],
    [
      'constructor.prototype nested',
      '{"count":2,"step":1,"x":{"constructor":{"prototype":{"polluted":true}}}}',
      { count: 2, step: 1, x: {} },
    ],
    ['__proto__ inside an array', '{"count":1,"step":1,"l":[{"__proto__":{"polluted":true}}]}', { count: 1, step: 1, l: [{}] }],
  ])('a stored row %s never crashes the start nor pollutes a prototype', async (_what, text, restored) => {
    await h.engine.startSwarm({ config: config('ho') });
    await h.engine.detach();
    h.engine = await h.open();
    await h.engine.store.saveObjectState('ho', 'c', text, { handler: 'counter', updatedAt: new Date(0).toISOString() });
    await h.engine.detach();
    h.engine = await h.open();
    const state = stateOf(h.engine, 'ho', 'c') as Record<string, unknown>;
    expect(state).toEqual(restored ?? { count: 0, step: 1 });
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    await send(h.engine, 'ho', 'c', 'tick');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    const invalid = (await eventsOf(h.engine, 'ho')).filter(
      (e) => e.event_type === 'object_error' && e.metadata['reason'] === 'object_state_invalid',
    );
    expect(invalid).toHaveLength(restored === null ? 1 : 0);
  });

  it('a saved state of another handler is not restored into this one', async () => {
    await h.engine.startSwarm({ config: config('hd') });
    await h.engine.store.saveObjectState('hd', 'c', '{"count":9,"step":1}', { handler: 'tick', updatedAt: new Date(0).toISOString() });
    await h.engine.detach();
    h.engine = await h.open();
    expect(stateOf(h.engine, 'hd', 'c')).toEqual({ count: 0, step: 1 });
  });
});
