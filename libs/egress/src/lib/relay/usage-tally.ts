import { USAGE_TOKENS_MAX } from './relay-limits';

/** The token counts of one answered call, as the upstream reported them (OpenAI or Anthropic names). */
export interface LlmUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /**
   * False when a count was not a plain non-negative integer ≤ USAGE_TOKENS_MAX (negative, fraction, string,
   * huge…): that count was charged as USAGE_TOKENS_MAX, so a lying usage exhausts a budget, never bypasses it.
   */
  readonly trusted: boolean;
}

/** The usage fields read (OpenAI chat, OpenAI responses, Anthropic messages). */
export const USAGE_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];

const FIELD_SET: ReadonlySet<string> = new Set(USAGE_FIELDS);

export function isUsageField(key: string): key is UsageField {
  return FIELD_SET.has(key);
}

/** A JSON integer as usage may be written: no sign, fraction or exponent, at most 12 digits. */
const COUNT_RE = /^(?:0|[1-9][0-9]{0,11})$/;

/**
 * Collects usage observations over one response (an SSE stream reports usage several times: Anthropic's
 * `message_start` then cumulative `message_delta`s). Each field keeps its largest value, so a repeated or
 * later smaller report never lowers a charge.
 */
export class UsageTally {
  private readonly values = new Map<UsageField, number>();
  private trusted = true;

  /** One value of `field`: its JSON number text, or null for a value that is not a number (string, object…). */
  observe(field: UsageField, text: string | null): void {
    let value = USAGE_TOKENS_MAX;
    if (text !== null && COUNT_RE.test(text) && Number(text) <= USAGE_TOKENS_MAX) value = Number(text);
    else this.trusted = false;
    this.values.set(field, Math.max(this.values.get(field) ?? 0, value));
  }

  /** The call's usage, or null when the response reported none. */
  result(): LlmUsage | null {
    if (this.values.size === 0) return null;
    const get = (f: UsageField): number => this.values.get(f) ?? 0;
    // Anthropic's input_tokens excludes cache reads and writes; OpenAI reports no cache_* fields.
    const promptTokens = Math.max(
      get('prompt_tokens'),
      get('input_tokens') + get('cache_creation_input_tokens') + get('cache_read_input_tokens'),
    );
    const completionTokens = Math.max(get('completion_tokens'), get('output_tokens'));
    const totalTokens = Math.max(get('total_tokens'), promptTokens + completionTokens);
    return { promptTokens, completionTokens, totalTokens, trusted: this.trusted };
  }
}
