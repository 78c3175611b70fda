import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { parseIntArg } from '../cli/args';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';

interface MessageRow {
  timestamp?: unknown;
  from?: unknown;
  to?: unknown;
  type?: unknown;
  content_preview?: unknown;
}

const to = (v: unknown): string => (Array.isArray(v) ? v.map((t) => oneLine(String(t), 64)).join(',') : oneLine(String(v), 64));

/** `messages <swarm> [--limit n]`: the routed messages of a swarm (previews), oldest first. */
export const messagesCommand: CommandModule = {
  name: 'messages',
  register(program, deps): void {
    program
      .command('messages')
      .description('The messages routed in a swarm (content previews), oldest first')
      .argument('<swarm>', 'swarm name')
      .option('--limit <n>', 'at most n messages (1-1000, server default 100)')
      .option('--json', 'print the server response unchanged')
      .addHelpText('after', '\nExamples:\n  genswarms messages demo\n  genswarms messages demo --limit 10 --json')
      .action(
        deps.action(async (swarm: string, opts: { limit?: string; json?: boolean }) => {
          const limit = opts.limit === undefined ? undefined : parseIntArg(opts.limit, '--limit', { min: 1, max: 1000 });
          const body = await callOp(deps, 'listMessages', { params: { s: swarm }, query: { limit } }, { json: opts.json === true });
          if (opts.json === true) return EXIT.ok;
          const rows: readonly MessageRow[] = body.messages;
          if (rows.length === 0) writeLine(deps.ctx.stdout, 'no messages');
          for (const m of [...rows].reverse())
            writeLine(
              deps.ctx.stdout,
              `${String(m.timestamp)}  ${oneLine(String(m.from), 64)} -> ${to(m.to)}  ${oneLine(String(m.type), 32)}  ${typeof m.content_preview === 'string' ? oneLine(m.content_preview) : ''}`,
            );
          return EXIT.ok;
        }),
      );
  },
};
