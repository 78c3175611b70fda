/**
 * TypeScript type expressions from the JSON Schema subset that zod's `toJSONSchema` writes (draft
 * 2020-12): objects, arrays and tuples, enums and consts, unions, intersections, `$ref`s into
 * `#/components/schemas/`. Anything else is `unknown`, never `any`. Dev-time only (not published).
 */
export type JsonSchema = { readonly [key: string]: unknown };

const REF_PREFIX = '#/components/schemas/';
const IDENTIFIER_RE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const key = (name: string): string => (IDENTIFIER_RE.test(name) ? name : JSON.stringify(name));
const indent = (text: string): string => text.replace(/\n/g, '\n  ');
const union = (parts: readonly string[]): string =>
  [...new Set(parts)].length === 1 ? (parts[0] as string) : [...new Set(parts)].join(' | ');

/** A JSDoc line for a description (no comment terminator can leak through). */
export function docComment(description: unknown): string {
  return typeof description === 'string' && description !== ''
    ? `/** ${description.replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */\n`
    : '';
}

function objectType(schema: JsonSchema, ref: (name: string) => string): string {
  const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const lines = Object.entries(props).map(
    ([name, prop]) => `${docComment(prop['description'])}${key(name)}${required.has(name) ? '' : '?'}: ${toTsType(prop, ref)};`,
  );
  const extra = schema['additionalProperties'];
  if (extra !== undefined && extra !== false) {
    const value = extra === true || Object.keys(extra as object).length === 0 ? 'unknown' : toTsType(extra as JsonSchema, ref);
    lines.push(`[key: string]: ${Object.keys(props).length > 0 ? 'unknown' : value};`);
  }
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n  ${lines.map(indent).join('\n  ')}\n}`;
}

function arrayType(schema: JsonSchema, ref: (name: string) => string): string {
  const prefix = schema['prefixItems'] as JsonSchema[] | undefined;
  if (prefix !== undefined) return `[${prefix.map((s) => toTsType(s, ref)).join(', ')}]`;
  const items = schema['items'] as JsonSchema | undefined;
  const item = items === undefined ? 'unknown' : toTsType(items, ref);
  return /^[A-Za-z0-9_.[\]'"]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
}

const PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  null: 'null',
};

/** The TypeScript type of `schema`; `ref` names a component (`#/components/schemas/X` → `ref('X')`). */
export function toTsType(schema: JsonSchema, ref: (name: string) => string): string {
  const target = schema['$ref'];
  if (typeof target === 'string' && target.startsWith(REF_PREFIX)) return ref(target.slice(REF_PREFIX.length));
  if ('const' in schema) return JSON.stringify(schema['const']);
  if (Array.isArray(schema['enum'])) return union((schema['enum'] as unknown[]).map((v) => JSON.stringify(v)));
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const options = schema[combinator] as JsonSchema[] | undefined;
    if (options !== undefined) return union(options.map((o) => toTsType(o, ref)));
  }
  const all = schema['allOf'] as JsonSchema[] | undefined;
  if (all !== undefined) return all.map((s) => `(${toTsType(s, ref)})`).join(' & ');
  const type = schema['type'];
  if (Array.isArray(type)) return union(type.map((t) => toTsType({ ...schema, type: t }, ref)));
  if (type === 'object') return objectType(schema, ref);
  if (type === 'array') return arrayType(schema, ref);
  if (typeof type === 'string' && PRIMITIVES[type] !== undefined) return PRIMITIVES[type] as string;
  return 'unknown';
}
