import fc from 'fast-check';
import { irAgent, irObject, irState } from '../test-support/fixtures';
import { executeReconcile } from './execute';
import type { ReconcileAction } from './plan';
import { planReconcile } from './plan';

describe('planReconcile (docs/ir.md)', () => {
  test('orders start, start_object, restart, restart_object, add_edge, remove_edge, stop, stop_object', () => {
    const observed = irState([irAgent('keep'), irAgent('changed'), irAgent('gone')], {
      objects: [irObject('o_keep'), irObject('o_changed'), irObject('o_gone')],
      topology: [
        ['keep', 'gone'],
        ['keep', 'changed'],
        ['gone', 'keep'],
      ],
    });
    const desired = irState([irAgent('new'), irAgent('keep'), irAgent('changed', { config: { x: 1 } })], {
      objects: [irObject('o_new'), irObject('o_keep'), irObject('o_changed', 'other')],
      topology: [
        ['keep', 'changed'],
        ['new', 'keep'],
        ['keep', 'new'],
      ],
    });
    const plan = planReconcile(desired, observed);
    expect(plan).toEqual<ReconcileAction[]>([
      { type: 'start_agent', name: 'new' },
      { type: 'start_object', name: 'o_new' },
      { type: 'restart_agent', name: 'changed' },
      { type: 'restart_object', name: 'o_changed' },
      { type: 'add_edge', from: 'new', to: 'keep' },
      { type: 'add_edge', from: 'keep', to: 'new' },
      { type: 'remove_edge', from: 'keep', to: 'gone' },
      { type: 'remove_edge', from: 'gone', to: 'keep' },
      { type: 'stop_agent', name: 'gone' },
      { type: 'stop_object', name: 'o_gone' },
    ]);
  });

  test.each([
    ['body', { body: { ref: 'inline:other', kind: 'data' } }],
    ['model', { model: { ref: 'model:x', attested: true } }],
    ['backend', { backend: { ref: 'local' } }],
    ['overrides', { overrides: { skills: ['/s'] } }],
    ['config', { config: { env: { A: 'b' } } }],
  ] as const)('a difference in %s restarts the agent', (_label, patch) => {
    expect(planReconcile(irState([irAgent('a', patch as never)]), irState([irAgent('a')]))).toEqual([{ type: 'restart_agent', name: 'a' }]);
  });

  test('key order and absent-vs-empty config are not differences', () => {
    const a = irAgent('a', { config: { x: 1, y: 2 } });
    const b = irAgent('a', { config: { y: 2, x: 1 } });
    expect(planReconcile(irState([a]), irState([b]))).toEqual([]);
    const { config: _c, overrides: _o, ...bare } = irAgent('z');
    expect(planReconcile(irState([bare as never]), irState([irAgent('z')]))).toEqual([]);
  });

  test('planReconcile(s, s) is empty for arbitrary states', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 6 }), fc.jsonValue(), (names, cfg) => {
        const s = irState(
          names.map((n) => irAgent(n, { config: { cfg } })),
          { topology: names.map((n) => [n, names[0] as string]) },
        );
        expect(planReconcile(s, structuredClone(s))).toEqual([]);
      }),
    );
  });

  test('the executor runs in order, restart = stop then start, and stops at the first failure', async () => {
    const calls: string[] = [];
    const port = {
      startAgent: async (n: string) => {
        calls.push(`start ${n}`);
        if (n === 'bad') throw new Error('boom');
      },
      stopAgent: async (n: string) => void calls.push(`stop ${n}`),
      startObject: async (n: string) => void calls.push(`startObject ${n}`),
      stopObject: async (n: string) => void calls.push(`stopObject ${n}`),
      addEdge: async (f: string, t: string) => void calls.push(`edge ${f}>${t}`),
      removeEdge: async (f: string, t: string) => void calls.push(`unedge ${f}>${t}`),
    };
    const actions: ReconcileAction[] = [
      { type: 'restart_agent', name: 'a' },
      { type: 'add_edge', from: 'a', to: 'b' },
      { type: 'start_agent', name: 'bad' },
      { type: 'stop_object', name: 'o' },
    ];
    const out = await executeReconcile(actions, port);
    expect(calls).toEqual(['stop a', 'start a', 'edge a>b', 'start bad']);
    expect(out).toMatchObject({ kind: 'failed', done: 2, action: { type: 'start_agent', name: 'bad' } });
    expect(await executeReconcile([], port)).toEqual({ kind: 'ok', done: 0 });
  });
});
