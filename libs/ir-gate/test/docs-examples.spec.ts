import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gateStart, parseConfigText, validateConfig, validateEvent } from '@genswarms/ir-gate';

const DOCS = path.resolve(__dirname, '../../../docs');

function fencedBlocks(file: string): Array<{ lang: 'json' | 'yaml'; body: string }> {
  const text = readFileSync(path.join(DOCS, file), 'utf8');
  return [...text.matchAll(/^```(json|yaml)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] as 'json' | 'yaml', body: m[2] as string }));
}

describe('docs/configuration.md examples', () => {
  const blocks = fencedBlocks('configuration.md');

  test('has the JSON and the YAML example', () => {
    expect(blocks.filter((b) => b.lang === 'json').length).toBeGreaterThanOrEqual(1);
    expect(blocks.filter((b) => b.lang === 'yaml').length).toBeGreaterThanOrEqual(1);
  });

  test.each(blocks.map((b, i) => [i, b] as const))('example %i parses, validates and passes the start gate', (_i, block) => {
    const loaded = parseConfigText(block.body, block.lang);
    if (loaded.kind !== 'ok') throw new Error(loaded.message);
    const checked = validateConfig(loaded.value, { baseDir: '/srv/cfg' });
    expect(checked.kind === 'invalid' ? checked.issues : []).toEqual([]);
    expect(gateStart(loaded.value).kind).toBe('ok');
  });
});

describe('docs/ir.md op catalogue', () => {
  const blocks = fencedBlocks('ir.md');

  test('shows every op', () => {
    const ops = new Set(blocks.map((b) => (JSON.parse(b.body) as { op: string }).op));
    expect([...ops].sort()).toEqual([
      'add_agent',
      'add_object',
      'add_topology_edges',
      'bump_package',
      'remove_agent',
      'remove_object',
      'remove_topology_edges',
      'scale_agent_group',
      'set_options',
      'update_config',
    ]);
  });

  test.each(blocks.map((b, i) => [i, b] as const))('event %i is valid', (_i, block) => {
    expect(validateEvent(JSON.parse(block.body))).toBeNull();
  });
});
