import { z } from 'zod';
import type { BackendView } from './backend-schema';

export const CLIENT_PRESETS = ['genswarms-agent', 'codex', 'claude', 'opencode'] as const;
/** Most words a `{command}` client may have (docs/runners.md). */
export const COMMAND_MAX_WORDS = 256;

const ArgvWord = z
  .string()
  .min(1, 'argv words must not be empty')
  .refine((s) => !s.includes('\0'), 'argv words must not contain NUL');

export const ClientSchema = z
  .union([
    z.enum(CLIENT_PRESETS),
    z
      .strictObject({
        command: z.array(ArgvWord).min(1).max(COMMAND_MAX_WORDS).describe('argv of the client, 1..256 words'),
      })
      .describe('A custom client command (argv, never a shell string)'),
  ])
  .describe('Client: genswarms-agent (default) | codex | claude | opencode | {command: [argv...]}');

export type ClientInput = z.infer<typeof ClientSchema>;

/**
 * docs/runners.md. The default client (`genswarms-agent`) is also accepted on `mock`, which runs no
 * process, so that a mock agent needs no client. TUI presets run on local (pty) and tmux.
 */
export function clientProblem(client: ClientInput | undefined, b: BackendView): string | null {
  const c = client ?? 'genswarms-agent';
  if (typeof c === 'object') return b.type === 'mock' ? 'a command client is not allowed with mock' : null;
  if (c === 'genswarms-agent') {
    if (b.type === 'swarm') return 'swarm runs a command client from its image (client: {command: [...]})';
    return b.type === 'tmux' ? 'tmux needs a TUI client (codex, claude, opencode or a command)' : null;
  }
  return b.type === 'local' || b.type === 'tmux' ? null : `client ${c} runs only on local or tmux`;
}
