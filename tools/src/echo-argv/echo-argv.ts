import { resolve } from 'node:path';
import { z } from 'zod';

/** Absolute path of the echo-argv fixture (plain CommonJS, mode 0755; same path from src and dist). */
export const ECHO_ARGV_BIN: string = resolve(__dirname, '..', '..', 'bin', 'echo-argv.js');

/** What echo-argv prints: its argv (without node and the script) and the env vars it was asked to show. */
export const EchoArgvOutputSchema = z
  .object({
    argv: z.array(z.string()).describe('process.argv.slice(2), verbatim'),
    env: z.record(z.string(), z.string()).describe('the variables named in ECHO_ARGV_ENV_NAMES that were set'),
  })
  .strict();
export type EchoArgvOutput = z.infer<typeof EchoArgvOutputSchema>;

/** Parses one echo-argv output line (stdout or the ECHO_ARGV_OUT file). */
export function parseEchoArgvOutput(text: string): { kind: 'ok'; value: EchoArgvOutput } | { kind: 'invalid'; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    // expected: the 'invalid' result names the problem
    return { kind: 'invalid', reason: 'not JSON' };
  }
  const parsed = EchoArgvOutputSchema.safeParse(raw);
  return parsed.success
    ? { kind: 'ok', value: parsed.data }
    : { kind: 'invalid', reason: parsed.error.issues.map((i) => i.message).join('; ') };
}
