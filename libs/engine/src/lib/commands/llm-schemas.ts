/**
 * The schemas of the metering egress's REST surface: usage on agent and swarm status, the budget PATCH
 * command and answer, the audit trail (docs/rest-api.md). Spread into COMMAND_SCHEMAS and ANSWER_SCHEMAS.
 */
import { z } from 'zod';
import { BudgetSchema, RateLimitSchema } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { LlmRequestEntry, LlmUsageTotals } from '../store/llm-usage';

const count = (what: string) => z.number().int().min(0).describe(what);

export const LlmUsageSchema = z
  .object({
    requests: count('Calls forwarded to the LLM'),
    refused: count('Calls the egress answered itself (over budget or rate, malformed)'),
    prompt_tokens: count('Prompt (input) tokens'),
    completion_tokens: count('Completion (output) tokens'),
    total_tokens: count('Total tokens'),
  })
  .meta({ id: 'LlmUsage' })
  .describe('LLM usage through the metering egress (network: isolated agents), kept across restarts until the swarm is purged');

/** `PATCH /api/swarms/:s/agents/:a/budget` and `PATCH /api/swarms/:s/budget`: null removes a limit. */
export const BudgetPatchCommandSchema = z
  .strictObject({
    budget: BudgetSchema.nullable().optional().describe('The new budget (replaces the old one); null removes it'),
    rate_limit: RateLimitSchema.nullable().optional().describe('The new rate limit (replaces the old one); null removes it'),
  })
  .refine((c) => c.budget !== undefined || c.rate_limit !== undefined, 'send budget and/or rate_limit')
  .meta({ id: 'BudgetPatchCommand' })
  .describe('Raise, lower or remove an LLM budget or rate limit at run time (recorded in the overlay)');
export type BudgetPatchCommand = z.infer<typeof BudgetPatchCommandSchema>;

export function parseBudgetPatchCommand(body: unknown): BudgetPatchCommand {
  const parsed = BudgetPatchCommandSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new EngineError('validation_failed', 'Send {budget?, rate_limit?} (positive integers; window an ISO-8601 duration).', {
    issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  });
}

const BudgetUpdatedSchema = z
  .object({
    status: z.literal('updated').describe('Outcome'),
    swarm: z.string(),
    agents: z.array(z.string()).readonly().describe('Agents whose limits changed (a scaled group changes together); empty for the swarm'),
    budget: BudgetSchema.nullable().describe('The budget in force now'),
    rate_limit: RateLimitSchema.nullable().describe('The rate limit in force now'),
  })
  .describe('The LLM limits were changed');

export const LlmRequestEntrySchema = z
  .object({
    id: z.number().int().describe('Entry id (page back with ?before=<id>)'),
    at: z.string().describe('When the call arrived (ISO 8601)'),
    method: z.string().describe('HTTP method ("-" when the request line was unreadable)'),
    path: z.string().describe('Request path without its query ("-" when unreadable)'),
    status: z.number().int().nullable().describe("The LLM's status, the egress's own (429, 400…), or null when no answer came"),
    duration_ms: count('From the request to the last byte of the answer'),
    bytes_in: count('Request bytes sent to the LLM'),
    bytes_out: count('Response bytes relayed to the agent'),
    prompt_tokens: count('Prompt tokens').optional(),
    completion_tokens: count('Completion tokens').optional(),
    total_tokens: count('Total tokens').optional(),
    usage: z.enum(['reported', 'estimated', 'untrusted']).optional().describe('How the tokens were known'),
    refused_by: z.enum(['budget', 'rate_limit', 'protocol']).optional().describe('Why the egress answered itself'),
    failure: z.string().optional().describe('How the call failed or why it was malformed'),
  })
  .meta({ id: 'LlmRequestEntry' })
  .describe('One LLM call (never a prompt, completion, header value or key)');

export interface LlmRequestList {
  readonly requests: readonly LlmRequestEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  readonly next_before: number | null;
}

export interface BudgetUpdated {
  readonly status: 'updated';
  readonly swarm: string;
  readonly agents: readonly string[];
  readonly budget: z.output<typeof BudgetSchema> | null;
  readonly rate_limit: z.output<typeof RateLimitSchema> | null;
}

export const LLM_ANSWER_SCHEMAS = {
  LlmRequestList: z
    .object({
      requests: z.array(LlmRequestEntrySchema).readonly(),
      next_before: z.number().int().nullable().describe('The `before` of the next (older) page; null on the last'),
    })
    .describe("An agent's LLM calls, newest first"),
  BudgetUpdated: BudgetUpdatedSchema,
} as const;

export const LLM_COMMAND_SCHEMAS = { BudgetPatchCommand: BudgetPatchCommandSchema } as const;

type Fits<Value extends Schema, Schema> = [Value, Schema];
/** Fails to compile when an engine type stops fitting its schema. */
export type LlmSchemaChecks = [
  Fits<LlmUsageTotals, z.output<typeof LlmUsageSchema>>,
  Fits<LlmRequestList, z.output<(typeof LLM_ANSWER_SCHEMAS)['LlmRequestList']>>,
  Fits<BudgetUpdated, z.output<typeof BudgetUpdatedSchema>>,
];
