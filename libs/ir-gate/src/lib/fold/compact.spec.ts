import fc from 'fast-check';
import { irAgent, irState } from '../test-support/fixtures';
import type { OverlayEvent } from '../state/types';
import { compact, fold } from './fold';

const NAMES = ['a', 'b', 'c', 'w', 'w_1', 'w_2'];
const nameArb = fc.constantFrom(...NAMES);
const opArb: fc.Arbitrary<Omit<OverlayEvent, 'seq'>> = fc.oneof(
  nameArb.map((n) => ({ op: 'add_agent' as const, payload: irAgent(n) as never })),
  nameArb.map((n) => ({ op: 'remove_agent' as const, payload: { name: n } })),
  fc.array(fc.tuple(nameArb, nameArb), { maxLength: 3 }).map((edges) => ({ op: 'add_topology_edges' as const, payload: { edges } })),
  fc.array(fc.tuple(nameArb, nameArb), { maxLength: 3 }).map((edges) => ({ op: 'remove_topology_edges' as const, payload: { edges } })),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ op: 'scale_agent_group' as const, payload: { base_name: 'w', target_count: n } })),
  fc.integer().map((k) => ({ op: 'set_options' as const, payload: { options: { k } } })),
);

describe('compact', () => {
  test('fold(checkpoint, remaining) has the same nodes and edges as fold(all)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 12 }), fc.integer({ min: 0, max: 13 }), (ops, at) => {
        const seed = irState([irAgent('a'), irAgent('w')], { topology: [['a', 'w']] });
        const events: OverlayEvent[] = ops.map((o, i) => ({ ...o, seq: i + 1 }));
        const all = fold(seed, events);
        const c = compact(seed, events, at);
        if (c.kind === 'error' || all.kind === 'error') {
          // An error in the first part surfaces from compact; one later surfaces from folding the rest.
          const rest = c.kind === 'ok' ? fold(c.checkpoint, c.remaining) : c;
          expect(all.kind).toBe('error');
          expect(rest).toMatchObject({ kind: 'error', seq: all.kind === 'error' ? all.seq : -1 });
          return;
        }
        const after = fold(c.checkpoint, c.remaining);
        if (after.kind !== 'ok') throw new Error('remaining failed');
        expect(after.state.agents.map((x) => x.name)).toEqual(all.state.agents.map((x) => x.name));
        expect(after.state.objects.map((x) => x.name)).toEqual(all.state.objects.map((x) => x.name));
        expect(after.state.topology).toEqual(all.state.topology);
      }),
      { numRuns: 300 },
    );
  });
});
