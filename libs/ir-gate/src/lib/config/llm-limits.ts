import { z } from 'zod';

/** Largest request budget (one billion calls). */
export const BUDGET_REQUESTS_MAX = 1_000_000_000;
/** Largest token budget (10^13 tokens, well inside a safe integer). */
export const BUDGET_TOKENS_MAX = 10_000_000_000_000;
/** Shortest budget window, ms (one second). */
export const BUDGET_WINDOW_MIN_MS = 1000;
/** Longest budget window, ms (366 days). */
export const BUDGET_WINDOW_MAX_MS = 366 * 24 * 3600 * 1000;
/** Highest `requests_per_minute`. */
export const RATE_REQUESTS_MAX = 1_000_000;
/** Highest `tokens_per_minute`. */
export const RATE_TOKENS_MAX = 10_000_000_000;

/** ISO-8601 duration in weeks, days, hours, minutes, seconds (`PT1H`, `P1D`, `P2W`); years and months vary in length and are refused. */
const DURATION_RE = /^P(?:([0-9]{1,4})W|(?:([0-9]{1,4})D)?(?:T(?:([0-9]{1,6})H)?(?:([0-9]{1,8})M)?(?:([0-9]{1,10})S)?)?)$/;

/** Milliseconds of an ISO-8601 duration `window`, or null when it is not one of the accepted forms. Pure. */
export function parseIsoDuration(text: string): number | null {
  const m = DURATION_RE.exec(text);
  if (m === null || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return ((((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (min ?? 0)) * 60_000 + (s ?? 0) * 1000;
}

function windowProblem(text: string): string | null {
  const ms = parseIsoDuration(text);
  if (ms === null) return 'must be an ISO-8601 duration in weeks, days, hours, minutes or seconds (PT1H, P1D, P2W)';
  if (ms < BUDGET_WINDOW_MIN_MS || ms > BUDGET_WINDOW_MAX_MS) return 'must be from 1 second to 366 days';
  return null;
}

const WindowSchema = z
  .string()
  .max(32)
  .superRefine((text, ctx) => {
    const problem = windowProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Budget window: an ISO-8601 duration (PT1H, P1D, P2W); absent = for the life of the agent (or swarm)');

/** `budget`: calls and/or tokens an agent (or a whole swarm) may spend per window; over it the egress answers 429. */
export const BudgetSchema = z
  .strictObject({
    requests: z.number().int().min(1).max(BUDGET_REQUESTS_MAX).optional().describe('LLM calls allowed per window (positive integer)'),
    tokens: z.number().int().min(1).max(BUDGET_TOKENS_MAX).optional().describe('Tokens (prompt + completion) allowed per window'),
    window: WindowSchema.optional(),
  })
  .refine((b) => b.requests !== undefined || b.tokens !== undefined, 'a budget needs requests or tokens')
  .describe('LLM budget, enforced by the egress relay of network: isolated agents (docs/security.md)');

/** `rate_limit`: calls and/or tokens per minute; over it the egress answers 429 with Retry-After. */
export const RateLimitSchema = z
  .strictObject({
    requests_per_minute: z.number().int().min(1).max(RATE_REQUESTS_MAX).optional().describe('LLM calls per minute (positive integer)'),
    tokens_per_minute: z.number().int().min(1).max(RATE_TOKENS_MAX).optional().describe('Tokens per minute (positive integer)'),
  })
  .refine(
    (r) => r.requests_per_minute !== undefined || r.tokens_per_minute !== undefined,
    'a rate limit needs requests_per_minute or tokens_per_minute',
  )
  .describe('LLM rate limit, enforced by the egress relay of network: isolated agents (docs/security.md)');

export type BudgetConfig = z.infer<typeof BudgetSchema>;
export type RateLimitConfig = z.infer<typeof RateLimitSchema>;

/** The LLM limits of one scope (an agent, or the swarm's `options`). */
export interface LlmLimits {
  readonly budget?: BudgetConfig;
  readonly rate_limit?: RateLimitConfig;
}

/**
 * The limits held by `holder` (an agent config or the swarm options, possibly from an overlay): each parsed
 * again, so a stored value that does not parse counts as absent here — the gate refused it on the way in.
 */
export function llmLimitsOf(holder: unknown): LlmLimits {
  if (typeof holder !== 'object' || holder === null) return {};
  const raw = holder as Record<string, unknown>;
  const own = (k: string): unknown => (Object.prototype.hasOwnProperty.call(raw, k) ? raw[k] : undefined);
  const budget = BudgetSchema.safeParse(own('budget'));
  const rate = RateLimitSchema.safeParse(own('rate_limit'));
  return { ...(budget.success ? { budget: budget.data } : {}), ...(rate.success ? { rate_limit: rate.data } : {}) };
}

export function hasLlmLimits(limits: LlmLimits): boolean {
  return limits.budget !== undefined || limits.rate_limit !== undefined;
}
