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

/** Backends that run codex, claude and opencode. */
const CODING_CLIENT_BACKENDS: readonly string[] = ['local', 'tmux', 'bwrap', 'docker'];

/**
 * docs/runners.md. The default client (`genswarms-agent`) is also accepted on `mock`, which runs no
 * process, so that a mock agent needs no client. codex/claude/opencode run on local, tmux, bwrap and docker.
 */
export function clientProblem(client: ClientInput | undefined, b: BackendView): string | null {
  const c = client ?? 'genswarms-agent';
  if (typeof c === 'object') return b.type === 'mock' ? 'a command client is not allowed with mock' : null;
  if (c === 'genswarms-agent') {
    if (b.type === 'swarm') return 'swarm runs a command client from its image (client: {command: [...]})';
    return b.type === 'tmux' ? 'tmux needs a TUI client (codex, claude, opencode or a command)' : null;
  }
  // a pane on tmux (and local's pty); headless per turn on local, bwrap and docker (docs/clients.md "Modes")
  return CODING_CLIENT_BACKENDS.includes(b.type) ? null : `client ${c} runs only on local, tmux, bwrap or docker`;
}
