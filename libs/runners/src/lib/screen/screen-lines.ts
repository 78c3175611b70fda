import { REDACTED, isSecretKey } from '@genswarms/security';
import { neutralizeControls } from '../tmux/turn-text';

/** Lines of a client's screen kept in attention and failure details (the newest). */
export const SCREEN_TAIL_LINES = 20;
/** Characters kept of each of those lines. */
export const SCREEN_TAIL_LINE_CHARS = 240;
/** Secret values shorter than this are not searched for (a 1-character "key" would blank the screen). */
const SECRET_MIN_CHARS = 8;

/** `…_KEY` / `…_APIKEY` names (GENSWARMS_LLM_API_KEY, OPENAI_API_KEY): secrets, besides isSecretKey's words. */
const KEY_NAME_RE = /(^|_)(API_?)?KEY$/i;

/** True for an env name whose value is a secret. */
export function isSecretEnvName(name: string): boolean {
  return isSecretKey(name) || KEY_NAME_RE.test(name);
}

/**
 * The values of the client's environment that are secrets (by name: `*_API_KEY`, `*TOKEN*`, …). A client can
 * print one (OpenCode shows its resolved config, key included, when that config does not parse): every screen
 * read by the host has them replaced before it is stored, shown or put into details.
 */
export function secretValuesOf(env: Readonly<Record<string, string>>): readonly string[] {
  return Object.keys(env)
    .filter((name) => isSecretEnvName(name))
    .map((name) => env[name] ?? '')
    .filter((value) => value.length >= SECRET_MIN_CHARS);
}

/** `lines` with every secret value replaced by `[redacted]`. */
export function redactScreen(lines: readonly string[], secrets: readonly string[]): readonly string[] {
  if (secrets.length === 0) return lines;
  return lines.map((line) => secrets.reduce((text, secret) => text.split(secret).join(REDACTED), line));
}

/**
 * The newest lines of a screen for details: trailing spaces dropped, a run of blank lines kept as one (a TUI's
 * screen is mostly empty rows), leading and trailing blank lines dropped, then at most SCREEN_TAIL_LINES lines of
 * SCREEN_TAIL_LINE_CHARS characters with terminal controls replaced (U+FFFD).
 */
export function tailScreenLines(lines: readonly string[]): string[] {
  const kept: string[] = [];
  for (const line of lines.map((l) => l.trimEnd())) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  if (kept[kept.length - 1] === '') kept.pop();
  return kept.slice(-SCREEN_TAIL_LINES).map((line) => neutralizeControls([...line].slice(0, SCREEN_TAIL_LINE_CHARS).join('')));
}
