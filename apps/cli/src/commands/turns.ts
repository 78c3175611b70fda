import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { parseIntArg } from '../cli/args';
import { callOp } from '../client/call';
import { oneLine } from '../cli/format';

interface TurnRow {
  id?: unknown;
  from?: unknown;
  status?: unknown;
  reason?: unknown;
  error?: unknown;
  started_at?: unknown;
  reply_preview?: unknown;
}

function formatTurn(t: TurnRow): string {
  const why = typeof t.reason === 'string' ? ` reason=${t.reason}` : typeof t.error === 'string' ? ` error=${oneLine(t.error)}` : '';
  const preview = typeof t.reply_preview === 'string' && t.reply_preview !== '' ? `  ${oneLine(t.reply_preview)}` : '';
  return `${String(t.started_at)}  ${String(t.id)}  ${String(t.status)}  from=${String(t.from)}${why}${preview}`;
}

/** `turns <swarm> <agent> [--limit n]`: turn history, newest first. */
export const turnsCommand: CommandModule = {
  name: 'turns',
  register(program, deps): void {
    program
      .command('turns')
      .description("Show an agent's turns, newest first")
      .addHelpText('after', '\nExample:\n  genswarms turns demo writer --limit 5')
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--limit <n>', 'how many (1-500, server default 50)')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, agent: string, opts: { limit?: string; json?: boolean }) => {
          const limit = opts.limit === undefined ? undefined : parseIntArg(opts.limit, '--limit', { min: 1, max: 500 });
          const body = await callOp(deps, 'listTurns', { params: { s: swarm, a: agent }, query: { limit } }, { json: opts.json === true });
          if (opts.json === true) return EXIT.ok;
          const turns: readonly TurnRow[] = body.turns;
          if (turns.length === 0) writeLine(deps.ctx.stdout, 'no turns');
          for (const t of turns) writeLine(deps.ctx.stdout, formatTurn(t));
          return EXIT.ok;
        }),
      );
  },
};
