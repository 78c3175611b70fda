import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { usageError } from '../cli/args';
import { callOp } from '../client/call';
import { followUntilReady, sendSwarmRequest } from './swarm-follow';

/**
 * `restart <swarm> [agent] [--delete]`: restart a swarm (optionally wiping its data) or one agent. A swarm's
 * restart is answered once every agent was stopped and started again: progress is shown meanwhile, and a live
 * server that gives no answer is followed until the agents are ready (as `start`).
 */
export const restartCommand: CommandModule = {
  name: 'restart',
  register(program, deps): void {
    program
      .command('restart')
      .description('Restart a swarm, or one agent of it')
      .addHelpText(
        'after',
        `
A large swarm's restart may take the server longer than one request timeout: "agents ready N/M" is shown
meanwhile, and the server is called unreachable only when it stops answering its health probe too.

Examples:
  genswarms restart demo writer
  genswarms restart demo --delete      also deletes its events, messages, turns and default workspaces`,
      )
      .argument('<swarm>', 'swarm name')
      .argument('[agent]', 'agent name')
      .option('--delete', 'swarm restart only: delete events, messages, turns and default workspaces first')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, agent: string | undefined, opts: { delete?: boolean; json?: boolean }) => {
          if (agent !== undefined && opts.delete === true) throw usageError('--delete applies to a whole swarm, not to one agent');
          const json = opts.json === true;
          if (agent !== undefined) {
            await callOp(deps, 'restartAgent', { params: { s: swarm, a: agent } }, { json });
            if (!json) writeLine(deps.ctx.stdout, `restarted ${swarm}/${agent}`);
            return EXIT.ok;
          }
          const args = { params: { s: swarm }, query: { delete: opts.delete === true ? ('true' as const) : undefined } };
          const sent = await sendSwarmRequest(deps, 'restartSwarm', args, { swarm, json, goal: 'ready', what: 'restart' });
          if (sent.answer === undefined)
            return followUntilReady(deps, swarm, { json, progress: sent.progress, done: 'restarted', failed: 'restart', restarting: true });
          if (!json) writeLine(deps.ctx.stdout, `restarted ${swarm}`);
          return EXIT.ok;
        }),
      );
  },
};
