import fc from 'fast-check';
import { parseConfigText } from './parse-text';
import { validateConfig } from './validate-config';

function hasForbiddenKey(json: string): boolean {
  let found = false;
  JSON.parse(json, (key: string, value: unknown) => {
    if (['__proto__', 'constructor', 'prototype'].includes(key)) found = true;
    return value;
  });
  return found;
}

describe('config entry points never throw', () => {
  test('validateConfig on arbitrary values', () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withObjectString: true, withBoxedValues: true, withMap: true, withSet: true }),
        (x) => {
          const r = validateConfig(x);
          expect(['ok', 'invalid']).toContain(r.kind);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('validateConfig on arbitrary JSON around a valid core', () => {
    fc.assert(
      fc.property(fc.json(), fc.json(), (extra, cfg) => {
        const r = validateConfig({ name: 's', agents: [{ name: 'a', config: { x: JSON.parse(cfg) } }], options: { y: JSON.parse(extra) } });
        expect(r.kind).toBe(hasForbiddenKey(cfg) || hasForbiddenKey(extra) ? 'invalid' : 'ok');
      }),
      { numRuns: 200 },
    );
  });

  test.each(['json', 'yaml', 'yml'] as const)('parseConfigText(%s) on arbitrary strings', (format) => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })), (text) => {
        const r = parseConfigText(text, format);
        expect(['ok', 'invalid']).toContain(r.kind);
        if (r.kind === 'ok') expect(validateConfig(r.value).kind).toMatch(/ok|invalid/);
      }),
      { numRuns: 300 },
    );
  });

  test('parseConfigText on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(['ok', 'invalid']).toContain(parseConfigText(Buffer.from(bytes), 'yaml').kind);
      }),
    );
  });
});
