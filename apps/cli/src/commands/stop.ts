import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { followUntilStopped, sendSwarmRequest } from './swarm-follow';

/**
 * `stop <swarm> [--purge]`: DELETE the swarm (`?purge=true` also deletes its data, docs/rest-api.md). The answer
 * comes once every agent is stopped: progress is shown meanwhile, and a live server that gives no answer is
 * followed until the agents are stopped (with `--purge`: until the swarm is gone).
 */
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
          const json = opts.json === true;
          const purge = opts.purge === true;
          const args = { params: { s: swarm }, query: { purge: purge ? ('true' as const) : undefined } };
          const sent = await sendSwarmRequest(deps, 'stopSwarm', args, { swarm, json, goal: 'stopped', what: 'stop' });
          if (sent.answer === undefined) return followUntilStopped(deps, swarm, { json, progress: sent.progress, purge });
          if (!json) writeLine(deps.ctx.stdout, `${swarm}: ${sent.answer.body.status}`);
          return EXIT.ok;
        }),
      );
  },
};
