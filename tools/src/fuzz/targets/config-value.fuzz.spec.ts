/**
 * Fuzz target `config-value` (docs/reliability.md "Fuzzing"): parsed config values as `POST /api/swarms
 * {config}` and `POST /api/config/validate {config}` hand them to the start gate (`gateStart`, which runs
 * `validateConfig`, the IR conversion and the overlay fold): the docs' configs mutated key by key
 * (hostile keys, deep nesting, huge numbers, wrong types), plus arbitrary values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { gateStart } from '@genswarms/ir-gate';
import { mutatedConfig } from '../arbitraries/config-mutations';
import { docsConfigs } from '../corpus/docs-configs';
import { expectDocumentedCode, expectPrototypeClean } from '../corpus/criteria';
import { replayFuzzRegressions, runFuzzTarget } from '../fuzz-run';
import type { FuzzTarget } from '../fuzz-target';

const baseDir = mkdtempSync(join(tmpdir(), 'gs-fuzz-config-'));
afterAll(() => rmSync(baseDir, { recursive: true, force: true }));

const target: FuzzTarget<unknown> = {
  name: 'config-value',
  arbitrary: fc.oneof(
    { weight: 8, arbitrary: mutatedConfig(docsConfigs()) },
    { weight: 1, arbitrary: fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true }) },
  ),
  check(value) {
    const gate = gateStart(value, { baseDir });
    expectPrototypeClean('gateStart');
    if (gate.kind === 'refused') expectDocumentedCode(gate.error, 'gateStart');
  },
};

describe('fuzz: config-value (gateStart on parsed values)', () => {
  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated configs: no throw, no hang, every refusal a documented code', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
