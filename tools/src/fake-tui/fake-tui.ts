import { resolve } from 'node:path';
import { z } from 'zod';

/** Absolute path of the fake-tui test client (plain CommonJS, mode 0755; same path from src and dist). */
export const FAKE_TUI_BIN: string = resolve(__dirname, '..', '..', 'bin', 'fake-tui.js');

/** Prefix of every reply.md fake-tui writes: the reply is this plus the pasted content. */
export const FAKE_TUI_REPLY_PREFIX = 'fake-tui: ';

/** What fake-tui writes to its `--report <file>`: argv, env *names* and every submitted text. */
export const FakeTuiReportSchema = z
  .object({
    argv: z.array(z.string()).describe('process.argv.slice(2), verbatim'),
    envNames: z.array(z.string()).describe('sorted names of the environment variables it received'),
    submissions: z.array(z.string()).describe('each text submitted with Enter (pasted CR read as LF)'),
    dialogAnswers: z.number().int().nonnegative().optional().describe('prompt mode: how often its dialog was answered'),
    discarded: z.number().int().nonnegative().optional().describe('prompt mode: characters of input lost (before the prompt, while busy)'),
  })
  .strict();
export type FakeTuiReport = z.infer<typeof FakeTuiReportSchema>;

/** Parses a fake-tui report file's content. */
export function parseFakeTuiReport(text: string): { kind: 'ok'; value: FakeTuiReport } | { kind: 'invalid'; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    // expected: the 'invalid' result names the problem
    return { kind: 'invalid', reason: 'not JSON' };
  }
  const parsed = FakeTuiReportSchema.safeParse(raw);
  return parsed.success
    ? { kind: 'ok', value: parsed.data }
    : { kind: 'invalid', reason: parsed.error.issues.map((i) => i.message).join('; ') };
}
