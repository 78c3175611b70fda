import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { parseIntArg } from '../cli/args';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';

interface HistoryRow {
  direction?: unknown;
  timestamp?: unknown;
  kind?: unknown;
  type?: unknown;
  from?: unknown;
  to?: unknown;
  status?: unknown;
  content_preview?: unknown;
}

function formatItem(h: HistoryRow): string {
  const preview = typeof h.content_preview === 'string' ? oneLine(h.content_preview) : '';
  const peer = Array.isArray(h.to) ? h.to.map((t) => oneLine(String(t), 64)).join(',') : oneLine(String(h.to), 64);
  if (h.direction === 'sent') return `${String(h.timestamp)}  sent      ${oneLine(String(h.type), 32)} to ${peer}  ${preview}`;
  return `${String(h.timestamp)}  received  ${oneLine(String(h.kind), 32)} from ${oneLine(String(h.from), 64)} (${oneLine(String(h.status), 32)})  ${preview}`;
}

/** `history <swarm> <agent> [--limit n]`: what an agent received and sent, oldest first. */
export const historyCommand: CommandModule = {
  name: 'history',
  register(program, deps): void {
    program
      .command('history')
      .description('What an agent received (tasks, messages, with their turn status) and sent, oldest first')
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--limit <n>', 'at most n entries (1-1000, server default 100)')
      .option('--json', 'print the server response unchanged')
      .addHelpText('after', '\nExamples:\n  genswarms history demo writer\n  genswarms history demo writer --limit 20 --json')
      .action(
        deps.action(async (swarm: string, agent: string, opts: { limit?: string; json?: boolean }) => {
          const limit = opts.limit === undefined ? undefined : parseIntArg(opts.limit, '--limit', { min: 1, max: 1000 });
          const args = { params: { s: swarm, a: agent }, query: { limit } };
          const body = await callOp(deps, 'agentHistory', args, { json: opts.json === true });
          if (opts.json === true) return EXIT.ok;
          const rows: readonly HistoryRow[] = body.history;
          if (rows.length === 0) writeLine(deps.ctx.stdout, 'no history');
          for (const h of [...rows].reverse()) writeLine(deps.ctx.stdout, formatItem(h));
          return EXIT.ok;
        }),
      );
  },
};
