import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { ClientError } from '@genswarms/client';
import { oneLine } from '../cli/format';

/** At most this many `issues` lines are printed under an error. */
const MAX_ISSUE_LINES = 20;

function issueLine(issue: unknown): string {
  if (typeof issue === 'object' && issue !== null && 'path' in issue && 'message' in issue) {
    const { path, message } = issue;
    if (typeof path === 'string' && typeof message === 'string') return `  ${path === '' ? '(root)' : path}: ${message}`;
  }
  return `  ${JSON.stringify(issue)}`;
}

/** Body fields that are not detail lines: the code, the sentence, the subject and the issue list. */
const NOT_DETAILS: ReadonlySet<string> = new Set(['error', 'message', 'agent', 'issues', 'valid']);

/** `value` as one safe line: strings neutralised, lists joined, anything else as JSON. */
export function detailValue(value: unknown): string {
  if (typeof value === 'string') return oneLine(value, 400);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return oneLine(value.join(', '), 400);
  return oneLine(JSON.stringify(value) ?? String(value), 400);
}

/** `  <key>: <value>` for every detail field of an error body (docs/rest-api.md, Errors), in the server's order. */
export function detailLines(body: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(body)
    .filter(([key, value]) => !NOT_DETAILS.has(key) && value !== undefined && value !== null)
    .map(([key, value]) => `  ${oneLine(key, 64)}: ${detailValue(value)}`);
}

/** The error line's parts from a ClientError: the server's code, sentence, issues and detail fields (docs/rest-api.md, Errors). */
function errorOf(err: ClientError): { code: string; message: string; details: string[]; subject?: string } {
  const notApi = err.code === 'invalid_response';
  const code = notApi ? `http_${err.status}` : oneLine(err.code, 64);
  const message = notApi || err.message === err.code ? `server answered ${err.status}` : oneLine(err.message, 1000);
  const issues: unknown = err.details['issues'];
  const agent: unknown = err.details['agent'];
  const details = [...(Array.isArray(issues) ? issues : []).slice(0, MAX_ISSUE_LINES).map(issueLine), ...detailLines(err.details)];
  return { code, message, details, ...(typeof agent === 'string' ? { subject: oneLine(agent, 64) } : {}) };
}

/** `text` with one final newline, as `--json` prints an answer. */
export function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * Maps a failed call to the CLI contract: `--json` prints the answer unchanged; a 401 → exit 4; another
 * error → exit 1 with the server's code and detail lines. Anything not a ClientError is rethrown as it is.
 */
export function failureOf(ctx: CliContext, err: unknown, json: boolean): unknown {
  if (!(err instanceof ClientError)) return err;
  if (json && err.text !== undefined) ctx.stdout.write(withNewline(err.text));
  const { code, message, details, subject } = errorOf(err);
  return new CliError(code, message, err.status === 401 ? EXIT.unauthorized : EXIT.failed, json ? [] : details, subject);
}

/** Prints `genswarms: [<subject>: ]<code>: <message>` for a failure, then any detail lines. */
export function reportError(ctx: CliContext, err: CliError): void {
  writeLine(ctx.stderr, `genswarms: ${err.subject === undefined ? '' : `${err.subject}: `}${err.code}: ${err.message}`);
  for (const line of err.details) writeLine(ctx.stderr, line);
}
