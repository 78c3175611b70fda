import { z } from 'zod';

/** One scripted reply: the first entry whose `match` matches the last user message wins. */
export const MockScriptEntrySchema = z
  .object({
    match: z.string().describe('Substring of the last user message, or `/regex/flags`.'),
    response: z.string().describe('Reply text; `{{content}}` is replaced by the user message.'),
    status: z.number().int().min(400).max(599).optional().describe('Answer with this HTTP error status instead.'),
    times: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe('Use this entry for its first N matching requests only, then fall through to later entries (e.g. 429 once, then 200).'),
    retry_after: z
      .string()
      .regex(/^[\x20-\x7e]{1,64}$/, 'must be 1..64 printable ASCII characters (it becomes a header value)')
      .optional()
      .describe('Sent verbatim as the Retry-After header of this reply (seconds or an HTTP-date).'),
  })
  .strict();
export type MockScriptEntry = z.infer<typeof MockScriptEntrySchema>;

export const MockScriptSchema = z.array(MockScriptEntrySchema).max(10_000);

/** Reply chosen for one message: scripted text, scripted HTTP error, or the default echo. */
export type MockReply =
  { kind: 'text'; content: string; retryAfter?: string } | { kind: 'http_error'; status: number; content: string; retryAfter?: string };

const REGEX_FORM = /^\/(.*)\/([dgimsuvy]*)$/s;

/** `/re/flags` → RegExp; anything else → null (plain substring). Throws SyntaxError on a bad regex. */
export function parseMatcher(match: string): RegExp | null {
  const m = REGEX_FORM.exec(match);
  if (m === null || match.length < 2) return null;
  return new RegExp(m[1] ?? '', (m[2] ?? '').replace('g', '').replace('y', ''));
}

/** True when `entry.match` (substring or `/regex/`) matches `content`. */
export function isScriptMatch(match: string, content: string): boolean {
  const re = parseMatcher(match);
  return re === null ? content.includes(match) : re.test(content);
}

/** Replaces every `{{content}}` literally (no `$&` replacement patterns). */
export function renderResponse(template: string, content: string): string {
  return template.split('{{content}}').join(content);
}

/**
 * Picks the reply for `content`; no entry matches → `mock: <content>`. `uses[i]` counts the replies entry i
 * gave (the server keeps one array per script); an entry with `times` is skipped once it is used up.
 */
export function chooseReply(script: readonly MockScriptEntry[], content: string, uses: number[] = []): MockReply {
  for (const [i, entry] of script.entries()) {
    if (!isScriptMatch(entry.match, content)) continue;
    const used = uses[i] ?? 0;
    if (entry.times !== undefined && used >= entry.times) continue;
    uses[i] = used + 1;
    const text = renderResponse(entry.response, content);
    const header = entry.retry_after === undefined ? {} : { retryAfter: entry.retry_after };
    return entry.status === undefined
      ? { kind: 'text', content: text, ...header }
      : { kind: 'http_error', status: entry.status, content: text, ...header };
  }
  return { kind: 'text', content: `mock: ${content}` };
}

/** Validates a parsed script; regexes are compiled once so a bad one fails here, not per request. */
export function parseMockScript(raw: unknown): { kind: 'ok'; script: MockScriptEntry[] } | { kind: 'invalid'; reason: string } {
  const parsed = MockScriptSchema.safeParse(raw);
  if (!parsed.success) {
    return { kind: 'invalid', reason: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  }
  for (const [i, entry] of parsed.data.entries()) {
    try {
      parseMatcher(entry.match);
    } catch {
      // expected: the 'invalid' result names the problem
      return { kind: 'invalid', reason: `${i}.match: invalid regular expression` };
    }
  }
  return { kind: 'ok', script: parsed.data };
}
