import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ApiResponse } from './api-client';

function errorOf(res: ApiResponse): { code: string; message: string } {
  const body = res.body as { error?: unknown; message?: unknown } | undefined;
  const code = typeof body?.error === 'string' ? body.error : `http_${res.status}`;
  const message = typeof body?.message === 'string' ? body.message : `server answered ${res.status}`;
  return { code, message };
}

/**
 * Maps an answer to the CLI contract: `--json` prints the body unchanged (success and error); a 401 →
 * exit 4; another non-2xx → exit 1. Returns the parsed body on success for human output.
 */
export function handleResponse(ctx: CliContext, res: ApiResponse, json: boolean): unknown {
  if (json) ctx.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  if (res.status >= 200 && res.status < 300) return res.body;
  const { code, message } = errorOf(res);
  throw new CliError(code, message, res.status === 401 ? EXIT.unauthorized : EXIT.failed);
}

/** Prints `genswarms: <code>: <message>` for a failure. */
export function reportError(ctx: CliContext, err: CliError): void {
  writeLine(ctx.stderr, `genswarms: ${err.code}: ${err.message}`);
}
