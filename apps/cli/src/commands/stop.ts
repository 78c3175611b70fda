import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';

/** `stop <swarm> [--purge]`: DELETE the swarm (`?purge=true` also deletes its data, docs/rest-api.md). */
export const stopCommand: CommandModule = {
  name: 'stop',
  register(program, deps): void {
    program
      .command('stop')
      .description('Stop a swarm (--purge also deletes its events, messages, overlay and default workspaces)')
      .addHelpText('after', '\nExamples:\n  genswarms stop demo\n  genswarms stop demo --purge')
      .argument('<swarm>', 'swarm name')
      .option('--purge', 'delete the swarm and its data')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, opts: { purge?: boolean; json?: boolean }) => {
          const query = { purge: opts.purge === true ? ('true' as const) : undefined };
          const body = await callOp(deps, 'stopSwarm', { params: { s: swarm }, query }, { json: opts.json === true });
          if (opts.json !== true) writeLine(deps.ctx.stdout, `${swarm}: ${body.status}`);
          return EXIT.ok;
        }),
      );
  },
};
