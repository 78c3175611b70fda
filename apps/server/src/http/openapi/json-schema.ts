import { z } from 'zod';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [key: string]: unknown };

const DEFS_PREFIX = '#/$defs/';
const COMPONENTS_PREFIX = '#/components/schemas/';

/** `$ref`s into `$defs` point at `components.schemas` instead (the same names, lifted once). */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFS_PREFIX)
        ? COMPONENTS_PREFIX + inner.slice(8)
        : rewriteRefs(inner);
  }
  return out;
}

/**
 * Collects the components of one document: every zod schema with a `.meta({id})` becomes a named
 * component, referenced by `$ref` wherever it occurs. `io` is `input` for what a client sends (before
 * transforms and defaults) and `output` for what the server answers.
 */
export class SchemaComponents {
  private readonly schemas = new Map<string, string>();

  /** The JSON Schema of `schema`; a named one is registered under `name` and answered as a `$ref`. */
  ref(schema: z.ZodType, io: 'input' | 'output', name?: string): JsonSchema {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) this.add(id, rewriteRefs(def) as JsonSchema);
    const body = rewriteRefs(root) as JsonSchema;
    // A schema with its own `.meta({id})` comes back as a reference to itself: answer the reference.
    const self = typeof body['$ref'] === 'string' && Object.keys(body).every((k) => k === '$ref' || k === 'description');
    if (self && (name === undefined || body['$ref'] === COMPONENTS_PREFIX + name)) return { $ref: body['$ref'] };
    if (name === undefined) return body;
    this.add(name, body);
    return { $ref: COMPONENTS_PREFIX + name };
  }

  /** A component's schema when `schema` is a reference to one, else `schema` itself. */
  resolve(schema: JsonSchema): JsonSchema {
    const target = schema['$ref'];
    if (typeof target !== 'string' || !target.startsWith(COMPONENTS_PREFIX)) return schema;
    const known = this.schemas.get(target.slice(COMPONENTS_PREFIX.length));
    return known === undefined ? schema : (JSON.parse(known) as JsonSchema);
  }

  /** Every component, sorted by name (the committed document must not depend on insertion order). */
  all(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const name of [...this.schemas.keys()].sort()) out[name] = JSON.parse(this.schemas.get(name) as string) as JsonSchema;
    return out;
  }

  private add(name: string, schema: JsonSchema): void {
    const text = JSON.stringify(schema);
    const known = this.schemas.get(name);
    if (known !== undefined && known !== text) throw new Error(`OpenAPI component ${name} has two different shapes (input vs output?)`);
    this.schemas.set(name, text);
  }
}
