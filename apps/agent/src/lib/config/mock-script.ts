import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Largest GENSWARMS_MOCK_SCRIPT file read (bytes). */
export const MOCK_SCRIPT_MAX_BYTES = 1024 * 1024;

const MockEntrySchema = z
  .object({
    match: z.string().describe('Substring of the task content, or `/regex/flags`.'),
    response: z.string().describe('Answer; `{{content}}` is replaced by the task content.'),
  })
  .strict();
const MockScriptSchema = z.array(MockEntrySchema).max(10_000);

/** A compiled entry: `regex` null means substring match. */
export interface MockEntry {
  readonly match: string;
  readonly regex: RegExp | null;
  readonly response: string;
}

export type MockScriptLoad = { kind: 'ok'; script: readonly MockEntry[] } | { kind: 'invalid'; reason: string };

const REGEX_FORM = /^\/(.*)\/([dimsuv]*)$/s;

/**
 * GENSWARMS_MOCK_SCRIPT is inline JSON when it starts with `[` (after whitespace), else a file path
 * (operator-chosen, read once at start, bounded). Reasons name the problem, never the content.
 */
export function loadMockScript(raw: string): MockScriptLoad {
  const inline = raw.trimStart().startsWith('[');
  let text = raw;
  if (!inline) {
    try {
      const data = readFileSync(raw);
      if (data.length > MOCK_SCRIPT_MAX_BYTES) return { kind: 'invalid', reason: 'script file too large' };
      text = data.toString('utf8');
    } catch (error) {
      return { kind: 'invalid', reason: `script file unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'invalid', reason: 'script is not valid JSON' };
  }
  return compileScript(json);
}

function compileScript(json: unknown): MockScriptLoad {
  const parsed = MockScriptSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: 'invalid', reason: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  }
  const script: MockEntry[] = [];
  for (const [i, entry] of parsed.data.entries()) {
    const m = REGEX_FORM.exec(entry.match);
    let regex: RegExp | null = null;
    if (m !== null && entry.match.length >= 2) {
      try {
        regex = new RegExp(m[1] ?? '', m[2] ?? '');
      } catch {
        return { kind: 'invalid', reason: `${i}.match: invalid regular expression` };
      }
    }
    script.push({ match: entry.match, regex, response: entry.response });
  }
  return { kind: 'ok', script };
}

/** First entry whose match hits `content`, `{{content}}` substituted literally; no match → echo `content`. */
export function answerFromScript(script: readonly MockEntry[], content: string): string {
  for (const entry of script) {
    const hit = entry.regex === null ? content.includes(entry.match) : entry.regex.test(content);
    if (hit) return entry.response.split('{{content}}').join(content);
  }
  return content;
}
