import { z } from 'zod';
import { checkCountedConfig } from './agent-count';
import { AgentEntrySchema } from './agent-schema';
import { MAX_AGENTS_LIMIT } from './limits';
import { BudgetSchema, RateLimitSchema } from './llm-limits';
import { NameSchema } from './names';

export const ObjectSchema = z
  .strictObject({
    name: NameSchema,
    handler: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\p{Cc}]+$/u, 'must be printable')
      .describe('A registered handler name'),
    config: z.record(z.string(), z.unknown()).optional().describe('Handler config (free-form)'),
  })
  .describe('An object (a stateful handler node)');

export const EdgeSchema = z
  .union([
    z.tuple([NameSchema, NameSchema]).describe('[from, to]'),
    z.strictObject({ from: NameSchema, to: NameSchema }).describe('{from, to}'),
  ])
  .describe('A directed edge');

export const OptionsSchema = z
  .looseObject({
    max_agents: z.number().int().min(1).max(MAX_AGENTS_LIMIT).optional().describe('Agent cap for dynamic mutations'),
    budget: BudgetSchema.optional().describe('LLM budget shared by every agent of the swarm'),
    rate_limit: RateLimitSchema.optional().describe('LLM rate limit shared by every agent of the swarm'),
  })
  .describe('Swarm options (free-form besides max_agents, budget and rate_limit)');

type Ctx = z.RefinementCtx;
type Draft = {
  agents: Array<{ name: string; reply_to?: string | undefined; count?: number | undefined; workspace?: unknown }>;
  objects?: Array<{ name: string }> | undefined;
  topology?: Array<z.infer<typeof EdgeSchema>> | undefined;
};

/** Edge endpoints as a pair, whichever form was used. */
export function edgePair(edge: z.infer<typeof EdgeSchema>): [string, string] {
  return Array.isArray(edge) ? [edge[0], edge[1]] : [edge.from, edge.to];
}

function checkReplyTo(s: Draft, ctx: Ctx): void {
  const objects = new Set((s.objects ?? []).map((o) => o.name));
  s.agents.forEach((a, i) => {
    if (a.reply_to !== undefined && !objects.has(a.reply_to)) {
      ctx.addIssue({ code: 'custom', path: ['agents', i, 'reply_to'], message: 'reply_to must name an object of this swarm' });
    }
  });
}

/** docs/configuration.md: one schema for JSON and YAML; strict except config, backend.opts and options. */
export const SwarmConfigSchema = z
  .strictObject({
    name: NameSchema.describe('Swarm name'),
    agents: z.array(AgentEntrySchema).min(1).describe('Agents (at least one); an entry with count declares count agents'),
    objects: z.array(ObjectSchema).optional().describe('Objects'),
    topology: z.array(EdgeSchema).optional().describe('Edges: [from, to] or {from, to}'),
    options: OptionsSchema.optional(),
  })
  .superRefine((s, ctx) => {
    checkCountedConfig(s, ctx);
    checkReplyTo(s, ctx);
  })
  .describe('A genswarms swarm config');

export type SwarmConfig = z.infer<typeof SwarmConfigSchema>;
export type ObjectConfig = z.infer<typeof ObjectSchema>;
export type EdgeConfig = z.infer<typeof EdgeSchema>;
