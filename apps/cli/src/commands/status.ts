import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { handleResponse } from '../client/respond';

interface SwarmRow {
  name?: unknown;
  status?: unknown;
  agent_count?: unknown;
  object_count?: unknown;
}

function formatRow(s: SwarmRow): string {
  return `${String(s.name)}  ${String(s.status)}  agents=${String(s.agent_count ?? 0)}  objects=${String(s.object_count ?? 0)}`;
}

/** `status [swarm] [--json]`: list swarms, or one swarm's detail. */
export const statusCommand: CommandModule = {
  name: 'status',
  register(program, deps): void {
    program
      .command('status')
      .description('List swarms, or show one swarm')
      .argument('[swarm]', 'swarm name')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string | undefined, opts: { json?: boolean }) => {
          const path = swarm === undefined ? '/api/swarms' : `/api/swarms/${encodeURIComponent(swarm)}`;
          const body = handleResponse(deps.ctx, await deps.api().request('GET', path), opts.json === true);
          if (opts.json === true) return EXIT.ok;
          if (swarm === undefined) {
            const swarms = ((body as { swarms?: SwarmRow[] } | undefined)?.swarms ?? []) as SwarmRow[];
            if (swarms.length === 0) writeLine(deps.ctx.stdout, 'no swarms');
            for (const s of swarms) writeLine(deps.ctx.stdout, formatRow(s));
          } else {
            writeLine(deps.ctx.stdout, formatRow(body as SwarmRow));
          }
          return EXIT.ok;
        }),
      );
  },
};
