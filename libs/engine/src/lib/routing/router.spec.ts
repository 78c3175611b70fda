import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventBus } from '../events/event-bus';
import { PushHub, type EnginePush } from '../events/pushes';
import { createHandlerRegistry } from '../objects/builtins';
import type { ObjectHandler } from '../objects/handler';
import { ObjectInstance } from '../objects/object-instance';
import { SqliteStore } from '../store/sqlite-store';
import { SYSTEM_CLOCK } from '../util/clock';
import { pruneReplies, routeAsk } from './asks';
import { routeBroadcast, routeDirect, type RoutingHost } from './router';
import { Topology, type NodeKind } from './topology';

interface Harness {
  host: RoutingHost;
  inbox: { agent: string; from: string; content: string }[];
  awaiting: string[];
  pushes: EnginePush[];
  objects: Map<string, ObjectInstance>;
  store: SqliteStore;
}

const registry = createHandlerRegistry();

describe('router', () => {
  let home: string;
  let h: Harness;

  async function harness(agents: string[], objects: Record<string, string | ObjectHandler>, edges: [string, string][]): Promise<Harness> {
    const store = SqliteStore.open(home);
    const events = new EventBus(store, SYSTEM_CLOCK);
    const pushHub = new PushHub();
    const pushes: EnginePush[] = [];
    pushHub.on((_s, p) => pushes.push(p));
    const objs = new Map<string, ObjectInstance>();
    for (const [name, handler] of Object.entries(objects)) {
      const hd = typeof handler === 'string' ? (registry.get(handler) as ObjectHandler) : handler;
      const o = new ObjectInstance(name, typeof handler === 'string' ? handler : 'custom', hd, {});
      await o.start();
      objs.set(name, o);
    }
    const inbox: Harness['inbox'] = [];
    const awaiting: string[] = [];
    const host: RoutingHost = {
      swarm: 's',
      topology: new Topology(edges),
      events,
      pushes: pushHub,
      store,
      clock: SYSTEM_CLOCK,
      kindOf: (n): NodeKind | undefined => (agents.includes(n) ? 'agent' : objs.has(n) ? 'object' : undefined),
      // As the runtime does: the item is stored with its message_delivered (one transaction), then announced.
      enqueueMessage: async (agent, from, content, along) => {
        inbox.push({ agent, from, content });
        const id = `item_${inbox.length}`;
        const r = await store.enqueue(
          { swarm: 's', agent, id, kind: 'message', from, content, now: new Date().toISOString(), limit: 1000 },
          along,
        );
        if (along !== undefined) events.announce(along);
        return r.kind === 'ok' ? { kind: 'ok', itemId: id } : { kind: 'full' };
      },
      object: (n) => objs.get(n),
      markAwaiting: (a) => awaiting.push(a),
    };
    return { host, inbox, awaiting, pushes, objects: objs, store };
  }

  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-router-')));
  });
  afterEach(async () => {
    await h.store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  async function eventTypes(): Promise<string[]> {
    return (await h.store.queryEvents({ limit: 100, sinceId: 0 })).map((e) => e.event_type);
  }

  it('a denied route delivers nothing and writes no message-log entry', async () => {
    h = await harness(['a', 'b'], {}, [['b', 'a']]);
    expect(await routeDirect(h.host, { from: 'a', to: 'b', content: 'hi', turn: null })).toBe('denied');
    expect(h.inbox).toEqual([]);
    expect(await h.store.listMessages('s', 10)).toEqual([]);
    const [ev] = await h.store.queryEvents({ limit: 1 });
    expect(ev).toMatchObject({ event_type: 'invalid_route', level: 'warning', metadata: { from: 'a', to: 'b', allowed_targets: [] } });
  });

  it('an allowed route delivers once, logs once, pushes, and marks awaiting when an edge leads back', async () => {
    h = await harness(['a', 'b'], {}, [
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(await routeDirect(h.host, { from: 'a', to: 'b', content: 'hi', turn: 't1' })).toBe('routed');
    expect(h.inbox).toEqual([{ agent: 'b', from: 'a', content: 'hi' }]);
    expect(await h.store.listMessages('s', 10)).toMatchObject([{ from: 'a', to: 'b', type: 'direct', content_preview: 'hi', turn: 't1' }]);
    expect(h.pushes).toMatchObject([{ type: 'message_routed', payload: { from: 'a', to: 'b', type: 'direct' } }]);
    expect(h.awaiting).toEqual(['a']);
  });

  it('message_delivered follows message_routed once the message is in the target inbox (agent category, agent = target)', async () => {
    h = await harness(['a', 'b'], {}, [['a', 'b']]);
    await routeDirect(h.host, { from: 'a', to: 'b', content: 'secret body', turn: 't1' });
    const events = await h.store.queryEvents({ limit: 100, sinceId: 0 });
    expect(events.map((e) => e.event_type)).toEqual(['message_routed', 'message_delivered']);
    expect(events[1]).toMatchObject({
      category: 'agent',
      level: 'info',
      agent: 'b',
      metadata: { from: 'a', to: 'b', type: 'direct', turn: 't1', item_id: 'item_1' },
    });
    expect(JSON.stringify(events[1]?.metadata)).not.toContain('secret body');
  });

  it('no message_delivered for a denied route, an absent target, or a full inbox', async () => {
    h = await harness(['a', 'b'], {}, [
      ['a', 'ghost'],
      ['b', 'a'],
    ]);
    await routeDirect(h.host, { from: 'a', to: 'b', content: 'x', turn: null });
    await routeDirect(h.host, { from: 'a', to: 'ghost', content: 'x', turn: null });
    const full: RoutingHost = { ...h.host, enqueueMessage: async () => ({ kind: 'full' }) };
    expect(await routeDirect(full, { from: 'b', to: 'a', content: 'x', turn: null })).toBe('dropped');
    expect(await eventTypes()).toEqual(['invalid_route', 'target_not_found', 'message_routed', 'inbox_full']);
  });

  it('a broadcast delivers to each target: one message_delivered per agent and per object that took it', async () => {
    h = await harness(['a', 'b', 'c'], { rec: 'recorder' }, [
      ['a', 'b'],
      ['a', 'rec'],
      ['a', 'c'],
    ]);
    await routeBroadcast(h.host, { from: 'a', content: 'all', turn: null });
    const delivered = (await h.store.queryEvents({ limit: 100, sinceId: 0 })).filter((e) => e.event_type === 'message_delivered');
    expect(delivered.map((e) => [e.agent, e.metadata['type']])).toEqual([
      ['b', 'broadcast'],
      ['rec', 'broadcast'],
      ['c', 'broadcast'],
    ]);
  });

  it('an allowed but absent target is target_not_found', async () => {
    h = await harness(['a'], {}, [['a', 'ghost']]);
    expect(await routeDirect(h.host, { from: 'a', to: 'ghost', content: 'hi', turn: null })).toBe('target_not_found');
    expect(await eventTypes()).toEqual(['target_not_found']);
  });

  it('system object names are exempt only when they are objects', async () => {
    h = await harness(['a', 'tick'], { metrics: 'metrics' }, []);
    expect(await routeDirect(h.host, { from: 'a', to: 'metrics', content: 'x', turn: null })).toBe('routed');
    expect(await routeDirect(h.host, { from: 'a', to: 'tick', content: 'x', turn: null })).toBe('denied');
    expect(h.objects.get('metrics')?.state).toEqual({ total: 1, by_sender: { a: 1 } });
    expect(h.awaiting).toEqual([]);
  });

  it('broadcast reaches each adjacency target once, never system objects without an edge', async () => {
    h = await harness(['a', 'b', 'c'], { metrics: 'metrics', rec: 'recorder' }, [
      ['a', 'b'],
      ['a', 'rec'],
      ['a', 'c'],
    ]);
    expect(await routeBroadcast(h.host, { from: 'a', content: 'all', turn: null })).toEqual(['b', 'rec', 'c']);
    expect(h.inbox.map((i) => i.agent)).toEqual(['b', 'c']);
    expect(h.objects.get('metrics')?.state).toEqual({ total: 0, by_sender: {} });
    expect(h.pushes).toMatchObject([{ type: 'message_broadcast', payload: { to: ['b', 'rec', 'c'] } }]);
    expect(h.awaiting).toEqual([]);
  });

  it('object sends obey topology (echo replies only along an edge)', async () => {
    h = await harness(['a'], { e: 'echo' }, [
      ['a', 'e'],
      ['e', 'a'],
    ]);
    await routeDirect(h.host, { from: 'a', to: 'e', content: 'ping', turn: null });
    expect(h.inbox).toEqual([{ agent: 'a', from: 'e', content: 'ping' }]);
    await h.store.close();
    fs.rmSync(home, { recursive: true, force: true });
    fs.mkdirSync(home);
    h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
    await routeDirect(h.host, { from: 'a', to: 'e', content: 'ping', turn: null });
    expect(h.inbox).toEqual([]);
    expect(await eventTypes()).toEqual(['message_routed', 'message_delivered', 'invalid_route']);
  });

  describe('asks', () => {
    const throwing: ObjectHandler = {
      init: () => null,
      onMessage: (_m, s) => ({ state: s }),
      onAsk: () => {
        throw new Error('x');
      },
    };
    const erroring: ObjectHandler = {
      init: () => null,
      onMessage: (_m, s) => ({ state: s }),
      onAsk: (_m, s) => ({ state: s, reply: { error: { code: 'busy', type: 'transient' } } }),
    };
    const stringError: ObjectHandler = {
      init: () => null,
      onMessage: (_m, s) => ({ state: s }),
      onAsk: (_m, s) => ({ state: s, reply: { error: 'nope' } }),
    };
    const broken: ObjectHandler = {
      init: () => {
        throw new Error('bad init');
      },
      onMessage: (_m, s) => ({ state: s }),
    };

    test.each([
      ['reply without error', 'e', { ok: true, result: 'q', error: null }],
      ['no reply', 'tk', { ok: true, result: { ticks: 0 }, error: null }],
      ['error object', 'busy', { ok: false, result: null, error: { code: 'busy', message: 'busy', type: 'transient' } }],
      ['error string', 'str', { ok: false, result: null, error: { code: 'nope', message: 'nope', type: 'unknown' } }],
      ['handler throws', 'thr', { ok: false, result: null, error: { code: 'handler_error', type: 'unknown' } }],
      [
        'object in error state',
        'broken',
        { ok: false, result: null, error: { code: 'object_error_state', type: 'transient' }, duration_ms: 0 },
      ],
      ['no edge', 'noedge', { ok: false, error: { code: 'route_denied', type: 'permanent' }, duration_ms: 0 }],
      ['absent node', 'ghost', { ok: false, error: { code: 'target_not_found', type: 'permanent' } }],
      ['agent target', 'b', { ok: false, error: { code: 'not_an_object', type: 'permanent' } }],
    ])('%s', async (_n, to, expected) => {
      h = await harness(
        ['a', 'b'],
        { e: 'echo', tk: 'tick', busy: erroring, str: stringError, thr: throwing, broken, noedge: 'echo' },
        ['e', 'tk', 'busy', 'str', 'thr', 'broken', 'ghost', 'b'].map((t): [string, string] => ['a', t]),
      );
      const ws = fs.mkdtempSync(path.join(home, 'ws-'));
      const out = await routeAsk(h.host, { from: 'a', to, content: 'q', replyTo: 'corr-1', turn: null, workspaceReal: ws });
      expect(out).toMatchObject({ kind: 'replied', written: true, envelope: { ...expected, timeout: false, correlation_id: 'corr-1' } });
      const file = JSON.parse(fs.readFileSync(path.join(ws, '.inbox', 'replies', 'corr-1.json'), 'utf8')) as unknown;
      expect(file).toMatchObject(expected);
      expect(h.awaiting).toEqual([]);
    });

    test.each([['..'], ['.'], ['a/b'], [''], ['x'.repeat(129)], [null], [5], ['a\0b']])(
      'drops an invalid correlation id %p with no file',
      async (corr) => {
        h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
        const ws = fs.mkdtempSync(path.join(home, 'ws-'));
        expect(await routeAsk(h.host, { from: 'a', to: 'e', content: 'q', replyTo: corr, turn: null, workspaceReal: ws })).toEqual({
          kind: 'dropped',
        });
        expect(fs.existsSync(path.join(ws, '.inbox'))).toBe(false);
      },
    );

    it('refuses to write through a symlinked .inbox', async () => {
      h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
      const ws = fs.mkdtempSync(path.join(home, 'ws-'));
      const elsewhere = fs.mkdtempSync(path.join(home, 'elsewhere-'));
      fs.symlinkSync(elsewhere, path.join(ws, '.inbox'));
      expect(await routeAsk(h.host, { from: 'a', to: 'e', content: 'q', replyTo: 'c', turn: null, workspaceReal: ws })).toMatchObject({
        written: false,
      });
      expect(fs.readdirSync(elsewhere)).toEqual([]);
    });

    it('prunes replies older than one hour', async () => {
      h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
      const ws = fs.mkdtempSync(path.join(home, 'ws-'));
      const replies = path.join(ws, '.inbox', 'replies');
      fs.mkdirSync(replies, { recursive: true });
      fs.writeFileSync(path.join(replies, 'old.json'), '{}');
      const old = new Date(Date.now() - 2 * 3600_000);
      fs.utimesSync(path.join(replies, 'old.json'), old, old);
      fs.writeFileSync(path.join(replies, 'recent.json'), '{}');
      await routeAsk(h.host, { from: 'a', to: 'e', content: 'q', replyTo: 'new', turn: null, workspaceReal: ws });
      expect(fs.readdirSync(replies).sort()).toEqual(['new.json', 'recent.json']);
    });

    test.each([
      [
        'replies',
        (ws: string, victim: string): void => {
          fs.mkdirSync(path.join(ws, '.inbox'));
          fs.symlinkSync(victim, path.join(ws, '.inbox', 'replies'));
        },
      ],
      [
        '.inbox',
        (ws: string, victim: string): void => {
          fs.mkdirSync(path.join(victim, 'replies'));
          fs.symlinkSync(victim, path.join(ws, '.inbox'));
        },
      ],
    ])('pruning never deletes through a %s swapped for a link after the write', async (_n, swap) => {
      h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
      const ws = fs.mkdtempSync(path.join(home, 'ws-'));
      const victim = fs.mkdtempSync(path.join(home, 'victim-'));
      swap(ws, victim);
      const old = new Date(Date.now() - 2 * 3600_000);
      for (const d of [victim, path.join(victim, 'replies')]) {
        if (!fs.existsSync(d)) continue;
        fs.writeFileSync(path.join(d, 'precious.json'), 'keep');
        fs.utimesSync(path.join(d, 'precious.json'), old, old);
      }
      await pruneReplies(path.join(ws, '.inbox', 'replies'), Date.now());
      expect(fs.readFileSync(path.join(victim, 'precious.json'), 'utf8')).toBe('keep');
      if (fs.existsSync(path.join(victim, 'replies')))
        expect(fs.readFileSync(path.join(victim, 'replies', 'precious.json'), 'utf8')).toBe('keep');
    });

    it('pruning removes an old link itself, never its target, and leaves directories', async () => {
      h = await harness(['a'], { e: 'echo' }, [['a', 'e']]);
      const ws = fs.mkdtempSync(path.join(home, 'ws-'));
      const replies = path.join(ws, '.inbox', 'replies');
      fs.mkdirSync(path.join(replies, 'sub.json'), { recursive: true });
      const target = path.join(home, 'target.json');
      fs.writeFileSync(target, 'keep');
      fs.symlinkSync(target, path.join(replies, 'l.json'));
      const old = new Date(Date.now() - 2 * 3600_000);
      fs.lutimesSync(path.join(replies, 'l.json'), old, old);
      await pruneReplies(replies, Date.now());
      expect(fs.readdirSync(replies)).toEqual(['sub.json']);
      expect(fs.readFileSync(target, 'utf8')).toBe('keep');
    });
  });
});
