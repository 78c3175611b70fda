import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ApiResponse } from './api-client';

/** At most this many `issues` lines are printed under an error. */
const MAX_ISSUE_LINES = 20;

function issueLine(issue: unknown): string {
  const i = issue as { path?: unknown; message?: unknown };
  if (typeof i?.path === 'string' && typeof i.message === 'string') return `  ${i.path === '' ? '(root)' : i.path}: ${i.message}`;
  return `  ${JSON.stringify(issue)}`;
}

function errorOf(res: ApiResponse): { code: string; message: string; details: string[] } {
  const body = res.body as { error?: unknown; message?: unknown; agent?: unknown; issues?: unknown } | undefined;
  const code = typeof body?.error === 'string' ? body.error : `http_${res.status}`;
  let message = typeof body?.message === 'string' ? body.message : `server answered ${res.status}`;
  if (typeof body?.agent === 'string') message = `${message} (agent ${body.agent})`;
  const issues = Array.isArray(body?.issues) ? (body.issues as unknown[]) : [];
  return { code, message, details: issues.slice(0, MAX_ISSUE_LINES).map(issueLine) };
}

/**
 * Maps an answer to the CLI contract: `--json` prints the body unchanged (success and error); a 401 →
 * exit 4; another non-2xx → exit 1. Returns the parsed body on success for human output.
 */
export function handleResponse(ctx: CliContext, res: ApiResponse, json: boolean): unknown {
  if (json) ctx.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  if (res.status >= 200 && res.status < 300) return res.body;
  const { code, message, details } = errorOf(res);
  throw new CliError(code, message, res.status === 401 ? EXIT.unauthorized : EXIT.failed, json ? [] : details);
}

/** Prints `genswarms: <code>: <message>` for a failure, then any detail lines. */
export function reportError(ctx: CliContext, err: CliError): void {
  writeLine(ctx.stderr, `genswarms: ${err.code}: ${err.message}`);
  for (const line of err.details) writeLine(ctx.stderr, line);
}
