import { parseConfigText } from './parse-text';
import { CONFIG_MAX_BYTES } from './limits';

const ok = (r: ReturnType<typeof parseConfigText>): unknown => {
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${r.code}: ${r.message}`);
  return r.value;
};

describe('parseConfigText', () => {
  test.each(['json', 'yaml', 'yml'] as const)('parses %s', (format) => {
    const text = format === 'json' ? '{"name":"s","agents":[{"name":"a"}]}' : 'name: s\nagents:\n  - name: a\n';
    expect(ok(parseConfigText(text, format))).toEqual({ name: 's', agents: [{ name: 'a' }] });
  });

  test('accepts bytes and strips a BOM', () => {
    expect(ok(parseConfigText(Buffer.from('\uFEFF{"a":1}'), 'json'))).toEqual({ a: 1 });
  });

  test.each([['toml'], ['JSON'], [''], ['../json']])('refuses format %j as unsupported_format', (format) => {
    expect(parseConfigText('{}', format as 'json')).toMatchObject({ kind: 'invalid', code: 'unsupported_format' });
  });

  test.each(['json', 'yaml'] as const)('refuses a %s document over 1 MiB as config_too_large', (format) => {
    const text = `${format === 'json' ? '{"a":"' : 'a: "'}${'x'.repeat(CONFIG_MAX_BYTES)}"${format === 'json' ? '}' : ''}`;
    expect(parseConfigText(text, format)).toMatchObject({ kind: 'invalid', code: 'config_too_large' });
    expect(parseConfigText(Buffer.from(text), format)).toMatchObject({ kind: 'invalid', code: 'config_too_large' });
  });

  test('counts bytes, not characters, against the limit', () => {
    const text = `"${'é'.repeat(CONFIG_MAX_BYTES / 2)}"`;
    expect(parseConfigText(text, 'json')).toMatchObject({ code: 'config_too_large' });
  });

  test('refuses invalid UTF-8 bytes', () => {
    expect(parseConfigText(Buffer.from([0x7b, 0xff, 0x7d]), 'json')).toMatchObject({ code: 'config_parse_error' });
  });

  test.each([
    ['{"a": x}', 1, 7],
    ['{\n  "a": 1,\n}', 3, 1],
    ['{"a":', 1, 6],
    ['', 1, 1],
    ['{"a":1} trailing', 1, 9],
    ['[1,\n 2,\n @]', 3, 2],
    ['{"a":"\u0001"}', 1, 7],
  ])('JSON error in %j carries line %i column %i, never the contents', (text, line, column) => {
    const r = parseConfigText(text, 'json');
    expect(r).toMatchObject({ kind: 'invalid', code: 'config_parse_error', line, column });
    expect(r.kind === 'invalid' && r.message).toBe(`invalid JSON at line ${line}, column ${column}`);
  });

  test('YAML error carries line and column, not the source', () => {
    const r = parseConfigText('name: s\nagents:\n  - name: a\n   bad: [secret-value\n', 'yaml');
    expect(r).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
    expect(r.kind === 'invalid' && r.message).not.toMatch(/secret/);
    expect(r.kind === 'invalid' && typeof r.line).toBe('number');
  });

  test('deep JSON nesting does not crash and is refused', () => {
    const depth = 200000;
    const r = parseConfigText(`${'['.repeat(depth)}${']'.repeat(depth)}`, 'json');
    expect(r).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
  });

  test('deep but malformed JSON nesting locates the error without recursion', () => {
    const depth = 200000;
    const r = parseConfigText(`${'['.repeat(depth)}x`, 'json');
    expect(r).toMatchObject({ kind: 'invalid', code: 'config_parse_error', line: 1, column: depth + 1 });
  });

  test.each([
    ['flow', (d: number) => `a: ${'['.repeat(d)}${']'.repeat(d)}`],
    ['block', (d: number) => Array.from({ length: d }, (_, i) => `${' '.repeat(i)}- `).join('\n') + 'x'],
  ])('deep YAML %s nesting does not crash and is refused', (_label, make) => {
    expect(parseConfigText(make(400), 'yaml')).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
  });

  test('accepts nesting at the depth limit', () => {
    const nested = `${'['.repeat(60)}${']'.repeat(60)}`;
    expect(parseConfigText(`{"a":${nested}}`, 'json').kind).toBe('ok');
  });

  test('refuses a YAML alias bomb (billion laughs)', () => {
    const rows = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [i, c] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) {
      const prev = String.fromCharCode(97 + i);
      rows.push(`${c}: &${c} [${Array.from({ length: 9 }, () => `*${prev}`).join(',')}]`);
    }
    const r = parseConfigText(rows.join('\n'), 'yaml');
    expect(r).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
  });

  test('accepts a few aliases', () => {
    expect(ok(parseConfigText('a: &x [1]\nb: *x\n', 'yaml'))).toEqual({ a: [1], b: [1] });
  });

  test.each([
    ['!!js/function', 'a: !!js/function "function () { return 1 }"\n'],
    ['!!js/regexp', 'a: !!js/regexp /x/\n'],
    ['local tag', 'a: !custom 1\n'],
    ['!!binary (not core)', 'a: !!binary aGVsbG8=\n'],
  ])('refuses the YAML custom tag %s', (_label, text) => {
    expect(parseConfigText(text, 'yaml')).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
  });

  test('refuses duplicate YAML keys with the position', () => {
    expect(parseConfigText('a: 1\na: 2\n', 'yaml')).toMatchObject({ code: 'config_parse_error', line: 2, column: 1 });
  });

  test('refuses more than one YAML document', () => {
    expect(parseConfigText('a: 1\n---\nb: 2\n', 'yaml')).toMatchObject({ code: 'config_parse_error' });
  });

  test('YAML merge keys are not expanded', () => {
    expect(ok(parseConfigText('base: &b {x: 1}\nc: {<<: *b}\n', 'yaml'))).toEqual({ base: { x: 1 }, c: { '<<': { x: 1 } } });
  });

  test.each(['json', 'yaml'] as const)('a %s __proto__ key stays an own key and never pollutes', (format) => {
    const text = format === 'json' ? '{"__proto__": {"polluted": true}}' : '__proto__: {polluted: true}\n';
    const value = ok(parseConfigText(text, format)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('never throws on a non-string, non-buffer text', () => {
    expect(parseConfigText(42 as unknown as string, 'json')).toMatchObject({ kind: 'invalid', code: 'config_parse_error' });
  });
});
