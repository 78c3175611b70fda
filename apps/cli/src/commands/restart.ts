import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { usageError } from '../cli/args';
import { callOp } from '../client/call';

/** `restart <swarm> [agent] [--delete]`: restart a swarm (optionally wiping its data) or one agent. */
export const restartCommand: CommandModule = {
  name: 'restart',
  register(program, deps): void {
    program
      .command('restart')
      .description('Restart a swarm, or one agent of it')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms restart demo writer\n  genswarms restart demo --delete      also deletes its events, messages, turns and default workspaces',
      )
      .argument('<swarm>', 'swarm name')
      .argument('[agent]', 'agent name')
      .option('--delete', 'swarm restart only: delete events, messages, turns and default workspaces first')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, agent: string | undefined, opts: { delete?: boolean; json?: boolean }) => {
          if (agent !== undefined && opts.delete === true) throw usageError('--delete applies to a whole swarm, not to one agent');
          const json = opts.json === true;
          if (agent === undefined)
            await callOp(
              deps,
              'restartSwarm',
              { params: { s: swarm }, query: { delete: opts.delete === true ? 'true' : undefined } },
              { json },
            );
          else await callOp(deps, 'restartAgent', { params: { s: swarm, a: agent } }, { json });
          if (opts.json !== true) writeLine(deps.ctx.stdout, `restarted ${agent === undefined ? swarm : `${swarm}/${agent}`}`);
          return EXIT.ok;
        }),
      );
  },
};
