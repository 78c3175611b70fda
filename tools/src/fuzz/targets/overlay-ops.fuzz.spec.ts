/**
 * Fuzz target `overlay-ops` (docs/reliability.md "Fuzzing"): IR overlay envelopes and ops — the docs/ir.md
 * example events mutated key by key (config patches of `update_config` / `set_options` included), hostile
 * sequence numbers and envelopes — through the path a stored or submitted overlay takes: `validateOverlay`,
 * the op policy (`checkOpPolicy`, `applyOverlay`), `materialize` and `compact` over a docs config's state.
 * Criteria: no throw, no hang, no prototype pollution, every error code one docs/ir.md documents.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { applyOverlay, checkOpPolicy, compact, configToState, materialize, validateConfig, validateOverlay } from '@genswarms/ir-gate';
import type { OverlayEvent, SwarmState } from '@genswarms/ir-gate';
import { REPO_ROOT } from '../../build-once/build-once';
import { mutatedConfig } from '../arbitraries/config-mutations';
import { hostileValue } from '../arbitraries/hostile-values';
import { docsConfigs } from '../corpus/docs-configs';
import { expectPrototypeClean } from '../corpus/criteria';
import { replayFuzzRegressions, runFuzzTarget } from '../fuzz-run';
import type { FuzzTarget } from '../fuzz-target';

const IR_DOC = readFileSync(join(REPO_ROOT, 'docs', 'ir.md'), 'utf8');
/** Every backticked snake_case word of docs/ir.md: the documented IR error codes are among them. */
const IR_WORDS = new Set([...IR_DOC.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1] as string));
const EXAMPLE_EVENTS = [...IR_DOC.matchAll(/```json\n([\s\S]*?)```/g)]
  .map((m) => JSON.parse(m[1] as string) as Record<string, unknown>)
  .filter((e) => typeof e['op'] === 'string');

const STATES: SwarmState[] = docsConfigs().flatMap((c) => {
  const v = validateConfig(c);
  return v.kind === 'ok' ? [configToState(v.config)] : [];
});

interface OverlayInput {
  readonly state: number;
  readonly envelope: unknown;
  readonly at: number;
}

const events = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: mutatedConfig(EXAMPLE_EVENTS) },
    { weight: 2, arbitrary: fc.constantFrom(...EXAMPLE_EVENTS) },
    { weight: 1, arbitrary: hostileValue },
  ),
  {
    maxLength: 6,
  },
);
const renumber = (list: unknown[]): unknown[] =>
  list.map((e, i) => (e !== null && typeof e === 'object' && !Array.isArray(e) ? { ...e, seq: i + 1 } : e));

const envelope: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: events.map((list) => ({ v: 1, kind: 'swarm.overlay', swarm: 's', apply: 'incremental', events: renumber(list) })),
  },
  {
    weight: 2,
    arbitrary: events.chain((list) =>
      mutatedConfig([{ v: 1, kind: 'swarm.overlay', swarm: 's', apply: 'transactional', events: renumber(list) }]),
    ),
  },
  { weight: 1, arbitrary: events.map((list) => ({ v: 1, kind: 'swarm.overlay', swarm: 's', apply: 'incremental', events: list })) },
  { weight: 1, arbitrary: hostileValue },
);

function expectIrCode(error: { code?: unknown } | null, where: string): void {
  if (error === null) return;
  if (typeof error.code !== 'string' || !IR_WORDS.has(error.code))
    throw new Error(`${where}: IR error code ${JSON.stringify(error.code)} is not in docs/ir.md`);
}

const target: FuzzTarget<OverlayInput> = {
  name: 'overlay-ops',
  arbitrary: fc.record({ state: fc.nat(), envelope, at: fc.integer({ min: -2, max: 8 }) }),
  check({ state: index, envelope: overlay, at }) {
    const state = STATES[index % STATES.length] as SwarmState;
    const invalid = validateOverlay(overlay);
    expectIrCode(invalid, 'validateOverlay');
    if (invalid !== null) return;
    const list = (overlay as { events: OverlayEvent[] }).events;
    for (const event of list) expectIrCode(checkOpPolicy(state, event, { maxAgents: 8 }), 'checkOpPolicy');
    const applied = applyOverlay(state, list, { maxAgents: 8 });
    if (applied.kind === 'error') expectIrCode(applied.error, 'applyOverlay');
    const folded = materialize(state, overlay as Parameters<typeof materialize>[1]);
    if (folded.kind === 'error') expectIrCode(folded.error, 'materialize');
    const compacted = compact(state, overlay as Parameters<typeof compact>[1], at) as { kind: string; error?: { code?: unknown } };
    if (compacted.kind === 'error') expectIrCode(compacted.error ?? null, 'compact');
    expectPrototypeClean('overlay fold');
  },
};

describe('fuzz: overlay-ops (validateOverlay, op policy, materialize, compact)', () => {
  it('has the docs/ir.md example events as seeds', () => {
    expect(EXAMPLE_EVENTS.length).toBeGreaterThanOrEqual(8);
    expect(STATES.length).toBeGreaterThan(0);
  });

  it('sends a fair share of its inputs past validation into the fold', () => {
    const sample = fc.sample(target.arbitrary, { numRuns: 300, seed: 1 });
    const valid = sample.filter((i) => validateOverlay(i.envelope) === null).length;
    expect(valid).toBeGreaterThan(30);
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated overlays: no throw, no hang, every error a documented IR code', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
