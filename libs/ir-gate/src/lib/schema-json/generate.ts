import { z } from 'zod';
import { SwarmConfigSchema } from '../config/swarm-schema';

/** Where the generated schema is committed, relative to the repository root. */
export const CONFIG_JSON_SCHEMA_PATH = 'docs/swarm-config.schema.json';

/**
 * JSON Schema (draft 2020-12) of the swarm config, derived from SwarmConfigSchema (input side).
 * Cross-field refinements are not representable and are documented in docs/configuration.md.
 */
export function generateConfigJsonSchema(): string {
  const schema = z.toJSONSchema(SwarmConfigSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  const withMeta = {
    ...schema,
    $id: 'https://genswarms.dev/schemas/swarm-config.schema.json',
    title: 'genswarms swarm config',
  };
  return `${JSON.stringify(withMeta, null, 2)}\n`;
}
