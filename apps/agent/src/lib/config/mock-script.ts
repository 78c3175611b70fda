import { readFileSync } from 'node:fs';
import { arrayOf, describeInvalid, object, string, validate } from '../validate/strict';

/** Largest GENSWARMS_MOCK_SCRIPT file read (bytes). */
export const MOCK_SCRIPT_MAX_BYTES = 1024 * 1024;

/** Most entries a script may have. */
export const MOCK_SCRIPT_MAX_ENTRIES = 10_000;

/** `[{match, response}]`, exactly those keys. */
const MockScriptSchema = arrayOf(
  object(
    {
      match: string(), // substring of the task content, or `/regex/flags`
      response: string(), // answer; `{{content}}` is replaced by the task content
    },
    'strict',
  ),
  { max: MOCK_SCRIPT_MAX_ENTRIES },
);

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
    // expected: the 'invalid' result names the problem
    return { kind: 'invalid', reason: 'script is not valid JSON' };
  }
  return compileScript(json);
}

function compileScript(json: unknown): MockScriptLoad {
  const parsed = validate(MockScriptSchema, json);
  if (parsed.kind === 'invalid') return { kind: 'invalid', reason: describeInvalid(parsed) };
  const script: MockEntry[] = [];
  for (const [i, entry] of parsed.value.entries()) {
    const m = REGEX_FORM.exec(entry.match);
    let regex: RegExp | null = null;
    if (m !== null && entry.match.length >= 2) {
      try {
        regex = new RegExp(m[1] ?? '', m[2] ?? '');
      } catch {
        // expected: the 'invalid' result names the problem
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
