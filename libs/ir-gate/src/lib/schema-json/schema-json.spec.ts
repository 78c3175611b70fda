import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_JSON_SCHEMA_PATH, generateConfigJsonSchema } from './generate';

const committed = path.resolve(__dirname, '../../../../..', CONFIG_JSON_SCHEMA_PATH);

describe('docs/swarm-config.schema.json', () => {
  // Regenerate with: GENSWARMS_UPDATE_SCHEMA=1 npx jest src/lib/schema-json (or npm run gen-schema).
  if (process.env['GENSWARMS_UPDATE_SCHEMA'] === '1') writeFileSync(committed, generateConfigJsonSchema());

  test('the committed schema equals the one generated from SwarmConfigSchema', () => {
    expect(readFileSync(committed, 'utf8')).toBe(generateConfigJsonSchema());
  });

  test('is strict where the config is strict and open where it is free-form', () => {
    const schema = JSON.parse(generateConfigJsonSchema()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking JSON
    expect(schema['additionalProperties']).toBe(false);
    expect(schema['required']).toEqual(['name', 'agents']);
    const agent = schema['properties'].agents.items;
    expect(agent.additionalProperties).toBe(false);
    expect(agent.properties.name.pattern).toBe('^[a-zA-Z][a-zA-Z0-9_-]{0,63}$');
    expect(schema['properties'].options.additionalProperties).toEqual({});
  });
});
