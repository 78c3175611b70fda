import type { CliContext } from './context';
import { CliError, EXIT } from './exit-codes';

/** `task -` / `msg -` read at most this much from stdin (the server's body limit is 1 MiB). */
export const STDIN_MAX_BYTES = 1048576;
const DIGITS_RE = /^[0-9]+$/;

/** A usage error (exit 2) with code `usage`, or a more specific code. */
export function usageError(message: string, code = 'usage'): CliError {
  return new CliError(code, message, EXIT.usage);
}

/**
 * An integer from decimal digits only (no sign, fraction, exponent or spaces) within [min, max];
 * anything else → usage error (exit 2) with `code`.
 */
export function parseIntArg(raw: string, what: string, range: { min: number; max: number }, code = 'usage'): number {
  const value = DIGITS_RE.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw usageError(`${what} must be an integer from ${range.min} to ${range.max}`, code);
  }
  return value;
}

async function readStdin(ctx: CliContext): Promise<string> {
  const stdin = ctx.stdin;
  if (stdin === undefined) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > STDIN_MAX_BYTES) throw usageError(`stdin is larger than ${STDIN_MAX_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The text of `<text...>` words joined by one space; a single `-` reads stdin (one trailing newline
 * dropped). Empty text → usage error.
 */
export async function readTextArg(ctx: CliContext, words: readonly string[], what: string): Promise<string> {
  const text = words.length === 1 && words[0] === '-' ? (await readStdin(ctx)).replace(/\r?\n$/, '') : words.join(' ');
  if (text.trim() === '') throw usageError(`${what} is empty`);
  return text;
}
