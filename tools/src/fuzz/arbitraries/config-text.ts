import fc from 'fast-check';
import { stringify } from 'yaml';
import { mutatedConfig } from './config-mutations';

export type ConfigTextFormat = 'json' | 'yaml' | 'yml';
/** A config document as the server receives it: text (or raw bytes) and the declared format. */
export interface ConfigTextInput {
  readonly text: string | Uint8Array;
  readonly format: ConfigTextFormat;
}

/** YAML alias bomb ("billion laughs"): `levels` anchors, each a list of `width` aliases of the previous. */
export function aliasBomb(levels: number, width: number): string {
  const lines = ['l0: &l0 ["lol"]'];
  for (let i = 1; i <= levels; i += 1) lines.push(`l${i}: &l${i} [${Array.from({ length: width }, () => `*l${i - 1}`).join(', ')}]`);
  return `name: bomb\nagents: [{name: a}]\noptions:\n  ${lines.join('\n  ')}\n`;
}

const YAML_TAGS = [
  '!!js/function "x"',
  '!custom x',
  '!!binary aGk=',
  '!!set {a: null}',
  '!!omap [a: 1]',
  '!<tag:yaml.org,2002:str> x',
  '!!timestamp 2001-12-14',
  '!!python/object:os.system x',
];

/** Text edits that keep most of a document: a byte flipped, a slice cut, a slice duplicated. */
function damage(text: string, at: number, len: number, ch: string, kind: 'flip' | 'cut' | 'dup'): string {
  const i = text.length === 0 ? 0 : at % text.length;
  if (kind === 'flip') return `${text.slice(0, i)}${ch}${text.slice(i + 1)}`;
  if (kind === 'cut') return `${text.slice(0, i)}${text.slice(i + len)}`;
  return `${text.slice(0, i + len)}${text.slice(i, i + len)}${text.slice(i + len)}`;
}

function asText(value: unknown, yaml: boolean): string {
  try {
    return (yaml ? (stringify(value, { aliasDuplicateObjects: false }) as string | undefined) : JSON.stringify(value)) ?? 'null';
  } catch {
    // expected: a value the serializer refuses (e.g. deep beyond its stack) becomes a plain deep document
    return yaml ? `${'['.repeat(5000)}` : `${'{"a":'.repeat(5000)}1`;
  }
}

/** Structure-aware documents: valid configs mutated key by key, serialized as JSON or YAML, maybe damaged. */
function structured(seeds: ReadonlyArray<Record<string, unknown>>): fc.Arbitrary<ConfigTextInput> {
  return fc
    .tuple(
      mutatedConfig(seeds),
      fc.constantFrom<ConfigTextFormat>('json', 'yaml', 'yml'),
      fc.option(
        fc.tuple(
          fc.nat(),
          fc.integer({ min: 1, max: 40 }),
          fc.string({ minLength: 1, maxLength: 1 }),
          fc.constantFrom('flip', 'cut', 'dup') as fc.Arbitrary<'flip' | 'cut' | 'dup'>,
        ),
        { freq: 3 },
      ),
    )
    .map(([value, format, edit]) => {
      const text = asText(value, format !== 'json');
      return { text: edit === null ? text : damage(text, ...edit), format };
    });
}

/** Duplicate keys: JSON (the parser keeps the last) and YAML (refused). */
function duplicateKeys(seeds: ReadonlyArray<Record<string, unknown>>): fc.Arbitrary<ConfigTextInput> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.constantFrom('name', 'agents', 'options', '__proto__'), fc.boolean())
    .map(([seed, key, yaml]) => {
      const dup = key === 'agents' ? '[]' : key === '__proto__' ? '{"polluted": true}' : '"dup"';
      if (yaml) return { text: `${key}: ${dup}\n${stringify(seed)}`, format: 'yaml' as const };
      return { text: `{"${key}": ${dup}, ${JSON.stringify(seed).slice(1)}`, format: 'json' as const };
    });
}

const deepText: fc.Arbitrary<ConfigTextInput> = fc
  .tuple(
    fc.integer({ min: 1, max: 100_000 }),
    fc.constantFrom('[', '{"a":', '- ', '{a: ', 'a:\n '),
    fc.constantFrom<ConfigTextFormat>('json', 'yaml'),
  )
  .map(([n, open, format]) => ({ text: `${open.repeat(n)}1`, format }));

const hugeNumbers: fc.Arbitrary<ConfigTextInput> = fc
  .tuple(
    fc.constantFrom('1e999', '-1e999', '99999999999999999999999', '0x7fffffff', '.inf', '.nan', '1_000', '0o777', '-0', '1e-400'),
    fc.constantFrom('max_agents', 'turn_timeout_ms', 'x'),
    fc.boolean(),
  )
  .map(([num, key, yaml]) => ({
    text: yaml
      ? `name: s\nagents: [{name: a}]\noptions: {${key}: ${num}}\n`
      : `{"name":"s","agents":[{"name":"a"}],"options":{"${key}":${num}}}`,
    format: yaml ? ('yaml' as const) : ('json' as const),
  }));

const tagged: fc.Arbitrary<ConfigTextInput> = fc
  .tuple(fc.constantFrom(...YAML_TAGS), fc.constantFrom('name', 'agents', 'options'), fc.boolean())
  .map(([tag, key, directive]) => ({
    text: `${directive ? '%TAG !e! tag:example.com,2000:\n---\n' : ''}name: s\nagents: [{name: a}]\n${key === 'name' ? 'label' : key}x: ${tag}\n`,
    format: 'yaml' as const,
  }));

const bombs: fc.Arbitrary<ConfigTextInput> = fc
  .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }))
  .map(([levels, width]) => ({ text: aliasBomb(levels, width), format: 'yaml' as const }));

const raw: fc.Arbitrary<ConfigTextInput> = fc.oneof(
  fc.record({ text: fc.uint8Array({ maxLength: 512 }), format: fc.constantFrom<ConfigTextFormat>('json', 'yaml', 'yml') }),
  fc.record({ text: fc.string({ unit: 'binary', maxLength: 512 }), format: fc.constantFrom<ConfigTextFormat>('json', 'yaml', 'yml') }),
  fc.record({ text: fc.json(), format: fc.constantFrom<ConfigTextFormat>('json', 'yaml') }),
);

/** Every kind of config document the config-text target feeds the parser and the start gate. */
export function configTextInput(seeds: ReadonlyArray<Record<string, unknown>>): fc.Arbitrary<ConfigTextInput> {
  return fc.oneof(
    { weight: 6, arbitrary: structured(seeds) },
    { weight: 1, arbitrary: duplicateKeys(seeds) },
    { weight: 1, arbitrary: deepText },
    { weight: 1, arbitrary: hugeNumbers },
    { weight: 1, arbitrary: tagged },
    { weight: 1, arbitrary: bombs },
    { weight: 2, arbitrary: raw },
  );
}
