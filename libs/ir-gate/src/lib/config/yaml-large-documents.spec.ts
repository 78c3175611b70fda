/**
 * Found by `npm run fuzz` (target config-text, tools/fuzz/regressions/config-text/): YAML documents under the
 * 1 MiB limit held the event loop for seconds — 371 KB of nested flow mappings took 11 s, a 678 KB mapping
 * of 50,000 keys 88 s (the parser's uniqueKeys check is quadratic). Deep text is now refused before parsing,
 * and duplicate keys are found in linear time. No wall-clock assertion: a ratio measured in the same run.
 */
import { performance } from 'node:perf_hooks';
import { parseConfigText } from './parse-text';
import { YAML_MAX_BYTES } from './limits';
import { YAML_PRESCAN_MAX_DEPTH, isYamlNestedTooDeep } from './yaml-prescan';

const keys = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n');

function fastestMs(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('large YAML config documents', () => {
  it.each([
    ['nested flow mappings', '{"a":'.repeat(25_000)],
    ['nested flow sequences', `x: ${'['.repeat(100_000)}`],
    ['nested block mappings', Array.from({ length: 400 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')],
    ['nested block sequences', `${'- '.repeat(300)}x`],
  ])('refuses %s before parsing them', (_what, text) => {
    expect(parseConfigText(text, 'yaml')).toEqual({
      kind: 'invalid',
      code: 'config_parse_error',
      message: 'YAML nesting too deep (refused before parsing)',
    });
  });

  it.each([
    ['brackets inside a block scalar', `name: s\nprompt: |\n  ${'['.repeat(YAML_PRESCAN_MAX_DEPTH + 10)}\n`],
    ['brackets inside a quoted string', `name: '${'{'.repeat(YAML_PRESCAN_MAX_DEPTH + 10)}'\n`],
    ['brackets after a comment mark', `name: s # ${'['.repeat(YAML_PRESCAN_MAX_DEPTH + 10)}\n`],
  ])('does not count %s as nesting', (_what, text) => {
    expect(isYamlNestedTooDeep(text)).toBe(false);
    expect(parseConfigText(text, 'yaml').kind).toBe('ok');
  });

  it('still refuses nesting past CONFIG_MAX_DEPTH that the pre-scan lets through', () => {
    expect(parseConfigText(`x: ${'['.repeat(100)}${']'.repeat(100)}`, 'yaml')).toMatchObject({
      kind: 'invalid',
      code: 'config_parse_error',
    });
  });

  it('reports a duplicate key of a large mapping with its line', () => {
    expect(parseConfigText(`${keys(10_000)}\nk7: again`, 'yaml')).toEqual({
      kind: 'invalid',
      code: 'config_parse_error',
      message: 'duplicate key at line 10001, column 1',
      line: 10001,
      column: 1,
    });
    expect(parseConfigText('a:\n  b: 1\n  b: 2\n', 'yaml')).toMatchObject({ message: 'duplicate key at line 3, column 3' });
    expect(parseConfigText('[{a: 1}, {a: 2}]', 'yaml').kind).toBe('ok');
  });

  it('refuses YAML over 128 KiB, and takes JSON of the same size', () => {
    // a 1 MiB YAML document still took about 2 s of CPU here (tools/fuzz/regressions/config-text/437b8d3fec1c.json),
    // a 253 KB one of one-line mappings over 1 s (5945ed2d2183.json)
    expect(YAML_MAX_BYTES).toBe(131072);
    const yaml = `a:\n${' a:\n'.repeat(YAML_MAX_BYTES / 4)}`;
    expect(parseConfigText(yaml, 'yaml')).toEqual({
      kind: 'invalid',
      code: 'config_too_large',
      message: `a YAML config is larger than ${YAML_MAX_BYTES} bytes`,
    });
    expect(parseConfigText(`a: "${'x'.repeat(YAML_MAX_BYTES - 10)}"`, 'yml').kind).toBe('ok');
    expect(parseConfigText(`{"a":"${'x'.repeat(YAML_MAX_BYTES)}"}`, 'json').kind).toBe('ok');
  });

  it('parses a mapping in time linear in its keys (4× the keys: well under 16× the time)', () => {
    const small = keys(4000);
    const large = keys(16_000);
    const ratio = fastestMs(() => parseConfigText(large, 'yaml')) / fastestMs(() => parseConfigText(small, 'yaml'));
    expect(ratio).toBeLessThan(10);
  });
});
