import { z } from 'zod';

/** The bodies `POST /api/config/validate` takes (the route parses each; the document lists the union). */
export const InlineBodySchema = z.strictObject({
  config: z.custom<unknown>((v) => v !== undefined).describe('Inline swarm config object (docs/configuration.md)'),
});
export const PathBodySchema = z.strictObject({
  config_path: z.unknown().describe('Path of a .json/.yaml/.yml file inside GENSWARMS_SWARM_CONFIG_DIR (docs/security.md)'),
});
export const ContentBodySchema = z.strictObject({
  content: z.string().describe('Config text'),
  format: z.string().describe('json, yaml or yml'),
});
/** The three body shapes of the validate request (exactly one), for the OpenAPI document. */
export const ValidateConfigCommandSchema = z
  .union([InlineBodySchema, PathBodySchema, ContentBodySchema])
  .describe('Exactly one of {config}, {config_path} or {content, format}');
