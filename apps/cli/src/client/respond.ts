import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ApiResponse } from './api-client';
import { oneLine } from '../cli/format';

/** At most this many `issues` lines are printed under an error. */
const MAX_ISSUE_LINES = 20;

function issueLine(issue: unknown): string {
  const i = issue as { path?: unknown; message?: unknown };
  if (typeof i?.path === 'string' && typeof i.message === 'string') return `  ${i.path === '' ? '(root)' : i.path}: ${i.message}`;
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

function errorOf(res: ApiResponse): { code: string; message: string; details: string[]; subject?: string } {
  const body = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as Record<string, unknown>;
  const code = typeof body['error'] === 'string' ? oneLine(body['error'], 64) : `http_${res.status}`;
  const message = typeof body['message'] === 'string' ? oneLine(body['message'], 1000) : `server answered ${res.status}`;
  const issues = Array.isArray(body['issues']) ? (body['issues'] as unknown[]) : [];
  const details = [...issues.slice(0, MAX_ISSUE_LINES).map(issueLine), ...detailLines(body)];
  return { code, message, details, ...(typeof body['agent'] === 'string' ? { subject: oneLine(body['agent'], 64) } : {}) };
}

/**
 * Maps an answer to the CLI contract: `--json` prints the body unchanged (success and error); a 401 →
 * exit 4; another non-2xx → exit 1. Returns the parsed body on success for human output.
 */
export function handleResponse(ctx: CliContext, res: ApiResponse, json: boolean): unknown {
  if (json) ctx.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  if (res.status >= 200 && res.status < 300) return res.body;
  const { code, message, details, subject } = errorOf(res);
  throw new CliError(code, message, res.status === 401 ? EXIT.unauthorized : EXIT.failed, json ? [] : details, subject);
}

/** Prints `genswarms: [<subject>: ]<code>: <message>` for a failure, then any detail lines. */
export function reportError(ctx: CliContext, err: CliError): void {
  writeLine(ctx.stderr, `genswarms: ${err.subject === undefined ? '' : `${err.subject}: `}${err.code}: ${err.message}`);
  for (const line of err.details) writeLine(ctx.stderr, line);
}
