/**
 * Fuzz target `config-text` (docs/reliability.md "Fuzzing"): swarm config documents, JSON and YAML text or raw
 * bytes, through the path `POST /api/config/validate {content, format}` and `config_path` take —
 * `parseConfigText`, then the start gate `gateStart`. Structure-aware (the docs' configs mutated key by key)
 * plus raw bytes, deep nesting, huge numbers, hostile and duplicate keys, alias bombs and tags.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateStart, parseConfigText } from '@genswarms/ir-gate';
import { configTextInput } from '../arbitraries/config-text';
import type { ConfigTextInput } from '../arbitraries/config-text';
import { docsConfigs } from '../corpus/docs-configs';
import { expectDocumentedCode, expectPrototypeClean } from '../corpus/criteria';
import { replayFuzzRegressions, runFuzzTarget } from '../fuzz-run';
import type { FuzzTarget } from '../fuzz-target';

const baseDir = mkdtempSync(join(tmpdir(), 'gs-fuzz-config-'));
afterAll(() => rmSync(baseDir, { recursive: true, force: true }));

const target: FuzzTarget<ConfigTextInput> = {
  name: 'config-text',
  arbitrary: configTextInput(docsConfigs()),
  check({ text, format }) {
    const loaded = parseConfigText(typeof text === 'string' ? text : Buffer.from(text), format);
    expectPrototypeClean('parseConfigText');
    if (loaded.kind === 'invalid') return expectDocumentedCode(loaded.code, 'parseConfigText');
    const gate = gateStart(loaded.value, { baseDir });
    expectPrototypeClean('gateStart');
    if (gate.kind === 'refused') expectDocumentedCode(gate.error, 'gateStart');
  },
};

describe('fuzz: config-text (parseConfigText + gateStart)', () => {
  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated documents: no throw, no hang, every refusal a documented code', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
